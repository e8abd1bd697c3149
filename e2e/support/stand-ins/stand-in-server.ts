import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createHash, randomBytes } from "node:crypto";

// The small HTTP kit every provider stand-in is built on: a real server on a free loopback
// port, routing by method and path, bodies parsed as the provider would (form or JSON), and
// the shared OAuth bookkeeping (codes, PKCE, refresh tokens) so each stand-in only writes its
// provider's wire format.

export type StandIn = { /** Base URL (scheme + host + port) to put in PROVIDER_BASE_URLS. */ url: string; stop(): Promise<void> };

export type StandInRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  /** Form fields (application/x-www-form-urlencoded) or the query for GET. */
  form: URLSearchParams;
  /** Parsed JSON body, or null. */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  text: string;
  /** Values of the route's `{name}` placeholders, percent-decoded. */
  params: Record<string, string>;
};

export type Reply = { status?: number; json?: unknown; text?: string; redirect?: string; headers?: Record<string, string> };
export type Route = (req: StandInRequest) => Reply | Promise<Reply>;

/**
 * Where a test reads how many calls a stand-in served: `GET /__stand-in/calls?path=<path>[&method=POST]`
 * → `{"count": n}`; `path` is the percent-decoded request path, e.g. `/v1beta/properties/123:runReport`.
 */
export const CALLS_PATH = "/__stand-in/calls";

/**
 * Where a test reads the exact requests a stand-in received (what a write sent the provider):
 * `GET /__stand-in/requests?path=<path>[&method=POST]` → `{"requests": [{method, path, query,
 * headers, json, text}]}`, oldest first; `path` as for CALLS_PATH. Bodies and headers only of
 * non-GET requests are kept (the writes), at most the last 500.
 */
export const REQUESTS_PATH = "/__stand-in/requests";
export type RecordedRequest = { method: string; path: string; query: Record<string, string>; headers: IncomingMessage["headers"]; json: unknown; text: string };

const safeDecode = (v: string) => {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
};

/**
 * The route for a request: an exact "METHOD /path" key, else a key with `{name}` placeholders
 * (each matches one path segment or part of one, e.g. "POST /v1beta/properties/{property}:runReport").
 */
function matchRoute(routes: Record<string, Route>, method: string, path: string): { route: Route; params: Record<string, string> } | null {
  const exact = routes[`${method} ${path}`];
  if (exact) return { route: exact, params: {} };
  for (const [key, route] of Object.entries(routes)) {
    if (!key.includes("{")) continue;
    const names: string[] = [];
    const pattern = key.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (_, name: string) => {
      names.push(name);
      return "([^/]+?)";
    });
    const m = new RegExp(`^${pattern}$`).exec(`${method} ${path}`);
    if (m) return { route, params: Object.fromEntries(names.map((n, i) => [n, safeDecode(m[i + 1])])) };
  }
  return null;
}

/**
 * Starts a server on 127.0.0.1:<free port>; `routes` keys are "METHOD /path", exact or with
 * `{name}` placeholders. It counts the calls it served per method and path, so a test can
 * prove a cached answer never reached the provider (CALLS_PATH).
 */
export async function startStandInServer(routes: Record<string, Route>): Promise<StandIn> {
  const calls = new Map<string, number>();
  const journal: RecordedRequest[] = [];
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    const form = /x-www-form-urlencoded/.test(req.headers["content-type"] ?? "") ? new URLSearchParams(text) : new URLSearchParams(url.search);
    const method = req.method ?? "GET";
    let reply: Reply;
    if (method === "GET" && url.pathname === CALLS_PATH) {
      const path = url.searchParams.get("path") ?? "";
      const only = url.searchParams.get("method")?.toUpperCase();
      let count = 0;
      for (const [key, n] of calls) if (key.endsWith(` ${path}`) && (!only || key.startsWith(`${only} `))) count += n;
      reply = { json: { count } };
    } else if (method === "GET" && url.pathname === REQUESTS_PATH) {
      const path = url.searchParams.get("path");
      const only = url.searchParams.get("method")?.toUpperCase();
      reply = { json: { requests: journal.filter((r) => (path === null || r.path === path) && (!only || r.method === only)) } };
    } else {
      const counted = `${method} ${safeDecode(url.pathname)}`;
      calls.set(counted, (calls.get(counted) ?? 0) + 1);
      if (method !== "GET") {
        journal.push({ method, path: safeDecode(url.pathname), query: Object.fromEntries(url.searchParams), headers: req.headers, json, text });
        if (journal.length > 500) journal.shift();
      }
      const found = matchRoute(routes, method, url.pathname);
      try {
        reply = found
          ? await found.route({ method, path: url.pathname, query: url.searchParams, headers: req.headers, form, json, text, params: found.params })
          : { status: 404, json: { error: "not_found", error_description: `stand-in has no route ${method} ${url.pathname}` } };
      } catch (e) {
        reply = { status: 500, json: { error: "stand_in_crashed", error_description: String(e) } };
      }
    }
    if (reply.redirect) {
      res.writeHead(reply.status ?? 302, { location: reply.redirect, ...reply.headers });
      res.end();
      return;
    }
    const body = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? "");
    res.writeHead(reply.status ?? 200, {
      "content-type": reply.json !== undefined ? "application/json; charset=utf-8" : "text/plain; charset=utf-8",
      ...reply.headers,
    });
    res.end(body);
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/**
 * Test controls on a stand-in's authorize endpoint (query parameters a test appends to the
 * authorize URL the app redirected to; a real provider ignores them):
 * - `decision`: `approve` (default) → redirect back with a code; `deny` → `error=access_denied`;
 *   `error` → the provider's own error redirect (e.g. `error=server_error`).
 * - `account`: the account the code is for (default `acct_default`), so tests can connect
 *   the same or different accounts.
 * - `token_failure`: `server_error` makes the token endpoint answer HTTP 500 for this code.
 */
export type AuthorizeControls = { decision: "approve" | "deny" | "error"; account: string; tokenFailure: string | null };
export function authorizeControls(query: URLSearchParams): AuthorizeControls {
  const d = query.get("decision");
  return { decision: d === "deny" || d === "error" ? d : "approve", account: query.get("account") || "acct_default", tokenFailure: query.get("token_failure") };
}

export type IssuedCode = { clientId: string; redirectUri: string; account: string; scope: string; codeChallenge: string | null; tokenFailure: string | null; used: boolean };

/** Codes, access and refresh tokens of one stand-in (in memory, for the run). */
export class OAuthBook {
  readonly codes = new Map<string, IssuedCode>();
  readonly accessTokens = new Map<string, { account: string; scope: string }>();

  issueCode(c: Omit<IssuedCode, "used">): string {
    const code = `code_${randomBytes(12).toString("hex")}`;
    this.codes.set(code, { ...c, used: false });
    return code;
  }

  /** The code's grant, or a reason it is not valid (RFC 6749 invalid_grant texts). */
  redeem(code: string, clientId: string, redirectUri: string | null, verifier: string | null): IssuedCode | string {
    const c = this.codes.get(code);
    if (!c) return "authorization code is invalid";
    if (c.used) return "authorization code was already used";
    if (c.clientId !== clientId) return "authorization code was issued to another client";
    if (redirectUri !== null && c.redirectUri !== redirectUri) return "redirect_uri does not match the authorization request";
    if (c.codeChallenge !== null) {
      if (!verifier) return "code_verifier is required";
      if (createHash("sha256").update(verifier).digest("base64url") !== c.codeChallenge) return "code_verifier does not match code_challenge";
    }
    c.used = true;
    return c;
  }

  issueAccessToken(account: string, scope: string): string {
    const token = `at_${randomBytes(12).toString("hex")}`;
    this.accessTokens.set(token, { account, scope });
    return token;
  }

  refreshTokenFor(account: string): string {
    return `rt_${account}`;
  }

  /**
   * Refresh tokens: `rt_<account>` (what the token endpoint issues) or any other value (a
   * white-label credential a test posts). `bad_scope…` is valid but grants no scope, so the
   * identity call fails with the provider's missing-scope error; any other `bad…` is expired
   * or revoked (invalid_grant).
   */
  grantOfRefreshToken(token: string): { account: string; scoped: boolean } | null {
    if (token.startsWith("bad_scope")) return { account: `acct_${createHash("sha256").update(token).digest("hex").slice(0, 10)}`, scoped: false };
    if (token.startsWith("bad") || !token) return null;
    if (token.startsWith("rt_")) return { account: token.slice(3), scoped: true };
    return { account: `acct_${createHash("sha256").update(token).digest("hex").slice(0, 10)}`, scoped: true };
  }
}

/** The OAuth app the test server is configured with for a provider (OAUTH_<PROVIDER>_CLIENT_ID / _SECRET). */
export function testClient(provider: string) {
  const p = provider.toLowerCase();
  return { clientId: `test-${p}-client`, clientSecret: `test-${p}-secret` };
}

/** What each family's stand-in module exports as `standIn`. */
export type StandInModule = {
  /** Connection types whose provider calls go to this stand-in (PROVIDER_BASE_URLS). */
  types: string[];
  /** OAuth configuration keys this stand-in accepts testClient(key) for, e.g. ["GOOGLE"]. */
  oauthProviders: string[];
  start(): Promise<StandIn>;
};
