import { randomBytes } from "node:crypto";
import { test, expect, cli, seed } from "../fixtures";
import { freePort, startServer } from "../support/server";

// Secrets never leak. A server of its own (the built app on this run's database) with its
// stdout and stderr captured serves a whole flow: an API key, connections from credentials of
// several types, an OAuth connection through the sandbox, an MCP server and token with calls,
// and failing requests that carry those secrets in the wrong places. Then every secret is
// searched for in every response body and header and in the server's complete output.

const unique = () => randomBytes(6).toString("hex");

type Exchange = { label: string; status: number; headers: Record<string, string>; body: string };

test("no key, token or credential appears in any response or in the server's output; request logs are JSON with ids", async () => {
  test.setTimeout(180_000);
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  // Its own APP_URL, so the OAuth flow's redirects and callback come back to this server.
  // No workflow runner: it would claim other tests' runs and call its own sandbox after it stops.
  const server = await startServer(port, {
    ...process.env,
    APP_URL: appUrl,
    BASE_URL: appUrl,
    PORT: String(port),
    WORKFLOW_RUNNER: "off",
  });
  const exchanges: Exchange[] = [];
  const secrets = new Map<string, string>();
  const secret = (what: string, value: string) => (secrets.set(what, value), value);
  // Values the flow itself hands to the browser (the connect link's token in its URL, the OAuth
  // code in the provider's redirect): they must stay out of the server's output only.
  const logOnly = new Map<string, string>();

  /** One HTTP request to the server, recorded with its whole answer. */
  async function call(label: string, path: string, init: RequestInit & { json?: unknown } = {}) {
    const headers = new Headers(init.headers);
    if (init.json !== undefined) headers.set("content-type", "application/json");
    const res = await fetch(new URL(path, appUrl), {
      redirect: "manual",
      ...init,
      headers,
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    });
    const body = await res.text();
    exchanges.push({ label, status: res.status, headers: Object.fromEntries(res.headers), body });
    return { status: res.status, headers: res.headers, body, json: () => JSON.parse(body) };
  }

  try {
    // The operator's CLI makes the team, its owner, an API key and (later) the MCP server.
    const team = (await cli("team", "create", "--name", `Secrets ${unique()}`)).json;
    const owner = (
      await cli(
        "user",
        "create",
        "--team",
        team.id,
        "--email",
        `owner-${unique()}@test.patchbay.dev`,
        "--role",
        "owner",
      )
    ).json;
    const key = secret("API key", (await cli("apikey", "create", "--team", team.id, "--user", owner.id)).json.key);
    const auth = { authorization: `Bearer ${key}` };

    // Connections from credentials, a distinctive value in every credential field.
    const sandboxKey = secret("sandbox_key.api_key", `sk-live-${unique()}`);
    const wl = {
      client_id: secret("sandbox_whitelabel.client_id", `cid-${unique()}`),
      client_secret: secret("sandbox_whitelabel.client_secret", `csec-${unique()}`),
      refresh_token: secret("sandbox_whitelabel.refresh_token", `rtok-${unique()}`),
    };
    const openaiKey = secret("openai.api_key", `sk-proj-${unique()}${unique()}`);
    const made: Record<string, string> = {};
    for (const [type, credentials] of [
      ["sandbox_key", { api_key: sandboxKey }],
      ["sandbox_whitelabel", wl],
      ["openai", { api_key: openaiKey }],
    ] as const) {
      const res = await call(`create ${type}`, "/v1/connections", {
        method: "POST",
        headers: auth,
        json: { connection_type: type, name: `Secret ${type}`, credentials },
      });
      expect(res.status, res.body).toBe(200);
      made[type] = res.json().id;
    }
    // The same white-label account again: a replacement, through the same code path.
    expect(
      (
        await call("replace sandbox_whitelabel", "/v1/connections", {
          method: "POST",
          headers: auth,
          json: { connection_type: "sandbox_whitelabel", name: "Secret again", credentials: wl },
        })
      ).status,
    ).toBe(200);

    // OAuth through the sandbox's own consent page, hop by hop.
    const link = (
      await call("auth link", "/v1/connections/auth-link", {
        method: "POST",
        headers: auth,
        json: { connection_type: "sandbox_oauth" },
      })
    ).json();
    logOnly.set("auth link token", new URL(link.url).pathname.split("/").pop()!);
    const started = await call("connect start", `${new URL(link.url).pathname}/start`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(started.status, started.body).toBe(303);
    const authorizeUrl = new URL(started.headers.get("location")!, appUrl);
    expect(authorizeUrl.origin).toBe(appUrl);
    expect((await call("sandbox consent page", authorizeUrl.pathname + authorizeUrl.search)).status).toBe(200);
    const account = `acct-${unique()}`;
    const decided = await call("sandbox approve", authorizeUrl.pathname + authorizeUrl.search, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ decision: "approve", account }).toString(),
    });
    expect(decided.status, decided.body).toBe(302);
    const callbackUrl = new URL(decided.headers.get("location")!, appUrl);
    // The same "browser": the cookie that Continue set binds the attempt to it.
    const finished = await call("oauth callback", callbackUrl.pathname + callbackUrl.search, {
      headers: { cookie: started.headers.get("set-cookie")!.split(";")[0] },
    });
    expect(finished.status).toBe(302);
    expect(finished.headers.get("location")).toContain("status=success");
    const status = (
      await call("auth link status", `/v1/connections/auth-links/${link.id}/status`, { headers: auth })
    ).json();
    made.sandbox_oauth = status.connection_id;
    const tokens = await seed<{ accessToken: string; refreshToken: string }>("oauthTokens", { id: made.sandbox_oauth });
    secret("OAuth access token", tokens.accessToken);
    secret("OAuth refresh token", tokens.refreshToken);
    logOnly.set("OAuth code", callbackUrl.searchParams.get("code")!);

    // An MCP server over those connections, its token, and calls that use the credentials.
    const mcp = (
      await cli(
        "mcp",
        "create",
        "--team",
        team.id,
        "--user",
        owner.id,
        "--name",
        "Secrets MCP",
        "--connections",
        Object.values(made).join(","),
      )
    ).json;
    const mcpToken = secret("MCP token", mcp.token);
    const rpc = (
      label: string,
      body: unknown,
      headers: Record<string, string> = { authorization: `Bearer ${mcpToken}` },
    ) =>
      call(label, "/mcp", {
        method: "POST",
        headers: { accept: "application/json, text/event-stream", ...headers },
        json: body,
      });
    expect(
      (
        await rpc("mcp initialize", {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
        })
      ).status,
    ).toBe(200);
    expect((await rpc("mcp tools/list", { jsonrpc: "2.0", id: 2, method: "tools/list" })).status).toBe(200);
    for (const type of ["sandbox_key", "sandbox_whitelabel", "sandbox_oauth"]) {
      const res = await rpc(`mcp report ${type}`, {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "sandbox_report", arguments: { connection_id: made[type], metric: "sessions", days: 2 } },
      });
      expect(res.status, res.body).toBe(200);
      expect(res.json().result.isError ?? false, res.body).toBe(false);
    }

    // Failing requests with the secrets in the wrong places.
    const wrong: [string, string, RequestInit & { json?: unknown }][] = [
      ["credential as bearer", "/v1/connections", { headers: { authorization: `Bearer ${sandboxKey}` } }],
      ["MCP token on /v1", "/v1/connections", { headers: { authorization: `Bearer ${mcpToken}` } }],
      [
        "API key on /mcp",
        "/mcp",
        {
          method: "POST",
          headers: { authorization: `Bearer ${key}` },
          json: { jsonrpc: "2.0", id: 1, method: "tools/list" },
        },
      ],
      [
        "credential in a query value",
        `/v1/connections?api_key=${encodeURIComponent(wl.client_secret)}&token=${encodeURIComponent(openaiKey)}`,
        { headers: auth },
      ],
      ["API key as a cursor", `/v1/logs?cursor=${encodeURIComponent(key)}`, { headers: auth }],
      [
        "secret in the path",
        `/v1/connections/${encodeURIComponent(wl.refresh_token)}`,
        { method: "DELETE", headers: { authorization: "Bearer pbk_wrong" } },
      ],
      ["key in the path, wrong key", `/v1/logs/${key}`, { headers: { authorization: `Bearer ${sandboxKey}` } }],
      [
        "malformed JSON around a credential",
        "/v1/connections",
        {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: `{"connection_type": "sandbox_key", "credentials": {"api_key": ${sandboxKey}}}`,
        },
      ],
      [
        "unknown credential field",
        "/v1/connections",
        {
          method: "POST",
          headers: auth,
          json: { connection_type: "sandbox_key", credentials: { api_key: sandboxKey, password: wl.client_secret } },
        },
      ],
      [
        "credentials on the auth-link call",
        "/v1/connections/auth-link",
        {
          method: "POST",
          headers: auth,
          json: { connection_type: "sandbox_oauth", credentials: { refresh_token: tokens.refreshToken } },
        },
      ],
      [
        "rejected credentials",
        "/v1/connections",
        {
          method: "POST",
          headers: auth,
          json: {
            connection_type: "sandbox_whitelabel",
            credentials: { ...wl, refresh_token: `bad-${wl.refresh_token}` },
          },
        },
      ],
      [
        "MCP token in the narrowing header",
        "/mcp",
        {
          method: "POST",
          headers: {
            authorization: `Bearer ${mcpToken}`,
            "x-service-context": mcpToken,
            accept: "application/json, text/event-stream",
          },
          json: { jsonrpc: "2.0", id: 1, method: "tools/list" },
        },
      ],
      ["a key as the request id", "/v1/connections", { headers: { ...auth, "x-request-id": key } }],
    ];
    for (const [label, path, init] of wrong) {
      const res = await call(label, path, init);
      expect(res.status, `${label}: ${res.body}`).toBeGreaterThanOrEqual(
        label === "a key as the request id" ? 200 : 400,
      );
    }
    secrets.set("rejected refresh token", `bad-${wl.refresh_token}`);
    // A caller's own sane request id is kept and echoed.
    const traced = await call("own request id", "/v1/connections", {
      headers: { ...auth, "x-request-id": "trace-0123456789" },
    });
    expect(traced.headers.get("x-request-id")).toBe("trace-0123456789");
  } finally {
    await server.stop();
  }

  const output = server.log();
  expect(exchanges.length).toBeGreaterThan(25);
  for (const [what, value] of secrets) {
    expect(value.length, what).toBeGreaterThanOrEqual(8);
    expect(output.includes(value), `${what} is in the server's output`).toBe(false);
    for (const x of exchanges) {
      expect(x.body.includes(value), `${what} is in the body of "${x.label}"`).toBe(false);
      expect(JSON.stringify(x.headers).includes(value), `${what} is in a header of "${x.label}"`).toBe(false);
    }
  }

  for (const [what, value] of logOnly) expect(output.includes(value), `${what} is in the server's output`).toBe(false);

  // Request logs: one JSON line per /v1 and /mcp request, carrying the id the response named.
  const lines = output.split("\n").filter((l) => l.startsWith("{"));
  const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  const requests = logged.filter((l) => l.msg === "request");
  const wrapped = exchanges.filter((x) => x.headers["x-request-id"]);
  expect(wrapped.length).toBeGreaterThan(20);
  for (const x of wrapped) {
    const line = requests.find((l) => l.request_id === x.headers["x-request-id"]);
    expect(line, `a log line for "${x.label}"`).toBeTruthy();
    expect(line).toMatchObject({
      level: "info",
      status: x.status,
      method: expect.any(String),
      path: expect.stringMatching(/^\//),
      duration_ms: expect.any(Number),
    });
    expect(typeof line!.time).toBe("string");
  }
  for (const l of requests)
    expect(l.request_id).toEqual(expect.stringMatching(/^(req_[0-9A-Za-z]{20}|trace-0123456789)$/));
  expect(requests.find((l) => l.path === "/v1/connections/[connection_id]" && l.method === "DELETE")).toMatchObject({
    status: 401,
    principal: null,
  });
  expect(requests.find((l) => l.path === "/mcp" && l.status === 200)).toMatchObject({
    principal: "mcp_token",
    team_id: expect.stringMatching(/^team_/),
  });
  expect(requests.find((l) => l.path === "/v1/connections" && l.status === 200)).toMatchObject({
    principal: "api_key",
  });
  const queried = exchanges.find((x) => x.label === "credential in a query value")!;
  expect(requests.find((l) => l.request_id === queried.headers["x-request-id"])).toMatchObject({
    path: "/v1/connections",
    query_keys: ["api_key", "token"],
    status: 400,
  });
});
