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
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBuild, freePort, freshPostgresDatabase, migrateWith, root, startServer } from "../support/server";
import { benchWorkspace } from "./workspace";
import { p, rpc } from "./mcp-rpc";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

async function main() {
  ensureBuild();
  const postgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "");
  const pg = postgres ? await freshPostgresDatabase(process.env.DATABASE_URL!, "patchbay_bench") : undefined;
  const { env } = benchWorkspace("bench-mcp-oauth", pg?.url);
  const engine = postgres ? "PostgreSQL" : "SQLite";
  migrateWith(env);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  process.env.APP_URL = baseUrl;
  const { createTeam } = await import("@/lib/teams/create-team");
  const { createUser } = await import("@/lib/users/create-user");
  const { createMcpServer, createMcpToken } = await import("@/lib/mcp-servers/mcp-servers");
  const { checkAuthorizeRequest } = await import("@/lib/mcp-oauth/authorize-request");
  const { decide } = await import("@/lib/mcp-servers/oauth-consent");
  const { db } = await import("@/lib/db/client");
  const team = await createTeam({ name: "Bench", plan: "team", creditsLimit: 1_000_000_000 });
  const user = await createUser({ teamId: team.id, email: "bench@patchbay.dev", role: "owner" });
  const mcp = await createMcpServer({ teamId: team.id, ownerUserId: user.id, name: "Bench MCP" });

  const server = await startServer(port, { ...env, PORT: String(port), APP_URL: baseUrl });
  try {
    const { token: pbm } = await createMcpToken({ teamId: team.id, userId: user.id, role: "owner" }, mcp.id);
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
        server: { kind: "existing", id: mcp.id },
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

    const url = `${baseUrl}/mcp`;
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
    for (let i = 0; i < 100; i++) for (const side of Object.values(sides)) await side();
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
    const order = Object.keys(sides);
    const until = performance.now() + 2 * SECONDS * 1000;
    for (let round = 0; performance.now() < until; round++) {
      for (let i = 0; i < order.length; i++) {
        const side = order[(round + i) % order.length];
        const t = performance.now();
        await sides[side]();
        times[side].push(performance.now() - t);
      }
    }
    const m = Object.fromEntries(
      Object.entries(times).map(([k, v]) => [k, { p50: p(v, 0.5), p99: p(v, 0.99), n: v.length }]),
    );
    const over = (side: string) => m[side].p50 - m.floor.p50;
    const bars = [
      { bar: "tools/list: (oauth − floor) ≤ 1.1 × (pbm − floor) at p50", value: over("oauth") / over("pbm") },
      {
        bar: "tools/call list_connections: (oauth − floor) ≤ 1.1 × (pbm − floor) at p50",
        value: over("oauth call") / over("pbm call"),
      },
    ].map((b) => ({ ...b, ok: b.value <= 1.1 }));
    const ms = (v: number) => v.toFixed(3);
    const text = [
      `# bench:mcp-oauth — ${engine}, ${2 * SECONDS} s alternated`,
      "",
      "| side | p50 ms | p99 ms | samples |",
      "|---|---|---|---|",
      ...order.map((k) => `| ${k} | ${ms(m[k].p50)} | ${ms(m[k].p99)} | ${m[k].n} |`),
      "",
      "floor: /mcp without a token (401, same route and wrapper); pbm/oauth: tools/list; call: tools/call list_connections.",
      "",
      ...bars.map((b) => `- ${b.ok ? "PASS" : "FAIL"} ${b.bar}: ${b.value.toFixed(3)}`),
    ].join("\n");
    console.log(`\n${text}\n`);
    writeFileSync(join(root, "e2e", ".artifacts", `bench-mcp-oauth-${postgres ? "postgresql" : "sqlite"}.md`), text);
    process.exitCode = bars.every((b) => b.ok) ? 0 : 1;
  } finally {
    await server.stop();
    await db.$disconnect();
    await pg?.drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
