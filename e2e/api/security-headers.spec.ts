import { test, expect, seedTeam, apiAs, baseURL } from "../fixtures";
import { isPostgres } from "../support/instances";
import { startExtraServer } from "../support/extra-server";

// Security headers on pages, the public connect page and API responses; HSTS only in production
// mode with an https APP_URL, for requests that arrived over https.

test.skip(isPostgres(), "the headers are set before any route reads the database: this runs in the SQLite pass");

function expectBaseline(headers: Headers, what: string) {
  const csp = headers.get("content-security-policy") ?? "";
  for (const directive of [
    "default-src 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "script-src 'self' 'unsafe-inline'",
  ]) {
    expect(csp, what).toContain(directive);
  }
  expect(csp, what).not.toContain("unsafe-eval");
  expect(headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(headers.get("x-frame-options"), what).toBe("DENY");
  expect(headers.get("strict-transport-security"), `${what}: no HSTS outside production`).toBeNull();
}

test("a page, the connect page and an API response carry the security headers", async () => {
  const page = await fetch(`${baseURL()}/sign-in`);
  expect(page.status).toBe(200);
  expectBaseline(page.headers, "sign-in page");
  expect(page.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");

  const team = await seedTeam();
  const api = await apiAs(team.users[0]);
  const link = await api.post("/v1/connections/auth-link", { data: { connection_type: "sandbox_oauth" } });
  expect(link.status(), await link.text()).toBe(200);
  const connect = await fetch((await link.json()).url);
  expect(connect.status).toBe(200);
  expectBaseline(connect.headers, "connect page");
  // Its URL holds the link's secret: never sent on as a Referer.
  expect(connect.headers.get("referrer-policy")).toBe("no-referrer");

  const res = await fetch(`${baseURL()}/v1/connections`, { headers: { authorization: `Bearer ${team.users[0].key}` } });
  expect(res.status).toBe(200);
  expectBaseline(res.headers, "API response");
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(typeof (await res.json())).toBe("object");
  // Even over https (x-forwarded-proto) a server that is not in production mode sends no HSTS.
  const forwarded = await fetch(`${baseURL()}/healthz`, { headers: { "x-forwarded-proto": "https" } });
  expect(forwarded.headers.get("strict-transport-security")).toBeNull();
});

test("production mode with an https APP_URL sends Strict-Transport-Security on https requests", async () => {
  test.setTimeout(120_000);
  const server = await startExtraServer({ APP_ENV: "production", APP_URL: "https://patchbay.example" });
  try {
    for (const path of ["/sign-in", "/healthz", "/v1/openapi.json"]) {
      const https = await fetch(`${server.baseUrl}${path}`, { headers: { "x-forwarded-proto": "https" } });
      expect(https.headers.get("strict-transport-security"), path).toBe("max-age=31536000; includeSubDomains");
      expect(https.headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
    }
    // Plain http (no TLS in front): browsers ignore HSTS there, so it is not sent.
    expect((await fetch(`${server.baseUrl}/healthz`)).headers.get("strict-transport-security")).toBeNull();
  } finally {
    await server.stop();
  }
});
