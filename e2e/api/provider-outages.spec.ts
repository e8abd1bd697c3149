import { createServer, type Server } from "node:http";
import { test, expect, seedTeam } from "../fixtures";
// The build global-setup made serves this second server too.
import { freePort, startServer } from "../support/server";
import { callback, paramsOf, start, type Link } from "../support/oauth-flow";

// A provider that is down or never answers: the caller gets a clear 502 naming the provider
// within the bounded timeout, nothing is stored, and an OAuth callback reports provider_error
// while the link stays pending. A second server whose providers point at a closed port and at
// a server that accepts connections but never responds.

test.describe.configure({ mode: "serial" });

let hanging: Server;
let app: Awaited<ReturnType<typeof startServer>>;
let headers: Record<string, string>;

test.beforeAll(async () => {
  hanging = createServer(() => {
    /* accepts, never answers */
  });
  await new Promise<void>((ok) => hanging.listen(0, "127.0.0.1", ok));
  const closedPort = await freePort();
  const hangingUrl = `http://127.0.0.1:${(hanging.address() as { port: number }).port}`;
  const port = await freePort();
  const baseUrls = {
    ...JSON.parse(process.env.PROVIDER_BASE_URLS ?? "{}"),
    openai: `http://127.0.0.1:${closedPort}`,
    anthropic: hangingUrl,
    ga4: hangingUrl,
  };
  app = await startServer(port, {
    ...process.env,
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    PROVIDER_BASE_URLS: JSON.stringify(baseUrls),
    PROVIDER_TIMEOUT_MS: "1500",
    // Its unreachable providers are for its own requests: it must not run other tests' workflows.
    WORKFLOW_RUNNER: "off",
  });
  headers = { authorization: `Bearer ${(await seedTeam()).users[0].key}`, "content-type": "application/json" };
});

test.afterAll(async () => {
  await app?.stop();
  hanging?.closeAllConnections();
  await new Promise((ok) => hanging?.close(ok));
});

const post = (path: string, body: object) =>
  fetch(`${app.baseUrl}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
const listed = async () => (await (await fetch(`${app.baseUrl}/v1/connections`, { headers })).json()) as unknown[];

test("a refused connection to the provider is a 502 naming it, and nothing is stored", async () => {
  const res = await post("/v1/connections", {
    connection_type: "openai",
    name: "Down",
    credentials: { api_key: "sk-live" },
  });
  expect(res.status).toBe(502);
  expect((await res.json()).detail).toMatch(/OpenAI/);
  expect(await listed()).toEqual([]);
});

test("a provider that never answers is a 502 after the bounded timeout, not a hang", async () => {
  const t0 = Date.now();
  const res = await post("/v1/connections", {
    connection_type: "anthropic",
    name: "Hangs",
    credentials: { api_key: "sk-ant" },
  });
  const took = Date.now() - t0;
  expect(res.status).toBe(502);
  const { detail } = await res.json();
  expect(detail).toMatch(/Anthropic/);
  expect(detail).toMatch(/no answer within 1\.5 s/);
  expect(took).toBeLessThan(10_000);
  expect(await listed()).toEqual([]);
});

test("an OAuth callback whose token endpoint hangs ends in provider_error and the link stays pending", async () => {
  const res = await post("/v1/connections/auth-link", {
    connection_type: "ga4",
    redirect_url: "https://client.example.com/cb",
  });
  const link = (await res.json()) as Link;
  // The authorize URL points at the hanging host too; answer it as the provider would have.
  const authorizeUrl = new URL(await start(link));
  const cb = new URL(`${app.baseUrl}/oauth/callback`);
  cb.searchParams.set("code", "some-code");
  cb.searchParams.set("state", authorizeUrl.searchParams.get("state")!);
  const p = paramsOf(await callback(cb.toString()));
  expect(p).toMatchObject({ status: "error", error: "provider_error" });
  expect(p.error_description).toMatch(/Google/);
  const status = await (await fetch(`${app.baseUrl}/v1/connections/auth-links/${link.id}/status`, { headers })).json();
  expect(status.status).toBe("pending");
});
