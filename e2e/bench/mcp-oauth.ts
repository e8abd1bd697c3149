// npm run bench:mcp-oauth — /mcp with an OAuth access token against the same call with a pbm_
// MCP token (CONTRACT §10), on the production server, samples alternated in one run:
//   - oauth: tools/list with an access token from the real flow (registration and token over
//            HTTP; the consent is the consent page's own function, for the bench's member);
//   - pbm:   the same tools/list with an MCP token of the same server and member;
//   - floor: the cheapest answer of the same route and wrapper: /mcp without a token (its 401).
// The same for tools/call list_connections (a log and a ledger entry each), where the token's
// share of the time is smaller. Bar: (oauth p50 − floor p50) ≤ 1.1 × (pbm p50 − floor p50).
//
// Embedded SQLite by default; DATABASE_URL=postgresql://… runs it on a fresh PostgreSQL
// database (dropped afterwards). Writes e2e/.artifacts/bench-mcp-oauth-<engine>.md.
import { createHash, randomBytes } from "node:crypto";
import { rpc } from "./mcp-rpc";
import { runMcpBench, sampleAlternated, timingTable } from "./mcp-bench";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

runMcpBench("bench-mcp-oauth", async ({ engine, baseUrl, url, team, user, mcpServer }) => {
  const { checkAuthorizeRequest } = await import("@/lib/mcp-oauth/authorize-request");
  const { decide } = await import("@/lib/mcp-servers/oauth-consent");
  const { id: mcpId, token: pbm } = await mcpServer();
  // The OAuth flow: register over HTTP, consent as the member, exchange the code over HTTP.
  const redirect = "http://127.0.0.1:9/callback";
  const reg = await fetch(`${baseUrl}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ redirect_uris: [redirect], client_name: "Bench client" }),
  });
  const { client_id } = (await reg.json()) as { client_id: string };
  const verifier = randomBytes(32).toString("base64url");
  const checked = await checkAuthorizeRequest(
    new URLSearchParams({
      response_type: "code",
      client_id,
      redirect_uri: redirect,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
    }),
  );
  if (checked.kind !== "ok") throw new Error(`authorize: ${JSON.stringify(checked)}`);
  const member = { id: user.id, teams: [{ id: team.id, name: "Bench", role: "owner" as const }] };
  const back = new URL(
    await decide(member, checked.request, {
      allow: true,
      teamId: team.id,
      server: { kind: "existing", id: mcpId },
    }),
  );
  const tokenRes = await fetch(`${baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: back.searchParams.get("code")!,
      redirect_uri: redirect,
      client_id,
      code_verifier: verifier,
    }),
  });
  const { access_token: oauth } = (await tokenRes.json()) as { access_token: string };
  if (!oauth) throw new Error("no access token");

  let id = 0;
  const list = (token: string | null) =>
    rpc(url, token, { jsonrpc: "2.0", id: ++id, method: "tools/list" }, token === null ? 401 : 200);
  const call = (token: string) =>
    rpc(url, token, {
      jsonrpc: "2.0",
      id: ++id,
      method: "tools/call",
      params: { name: "list_connections", arguments: {} },
    });
  // Both tokens answer the same tools.
  const [a, b] = [await list(oauth), await list(pbm)];
  if (JSON.stringify(a.result) !== JSON.stringify(b.result)) throw new Error("the two tokens list different tools");

  const sides: Record<string, () => Promise<unknown>> = {
    floor: () => list(null),
    pbm: () => list(pbm),
    oauth: () => list(oauth),
    "pbm call": () => call(pbm),
    "oauth call": () => call(oauth),
  };
  const m = await sampleAlternated(sides, 2 * SECONDS * 1000);
  const over = (side: string) => m[side].p50 - m.floor.p50;
  const bars = [
    { bar: "tools/list: (oauth − floor) ≤ 1.1 × (pbm − floor) at p50", value: over("oauth") / over("pbm") },
    {
      bar: "tools/call list_connections: (oauth − floor) ≤ 1.1 × (pbm − floor) at p50",
      value: over("oauth call") / over("pbm call"),
    },
  ].map((b) => ({ ...b, ok: b.value <= 1.1 }));
  const lines = [
    `# bench:mcp-oauth — ${engine}, ${2 * SECONDS} s alternated`,
    "",
    ...timingTable(m),
    "",
    "floor: /mcp without a token (401, same route and wrapper); pbm/oauth: tools/list; call: tools/call list_connections.",
    "",
  ];
  return { lines, bars };
});
