import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createHash, randomBytes } from "node:crypto";

// The small HTTP kit every provider stand-in is built on: a real server on a free loopback
// port, routing by method and path, bodies parsed as the provider would (form or JSON), and
// the shared OAuth bookkeeping (codes, PKCE, refresh tokens) so each stand-in only writes its
// provider's wire format.

export type StandIn = {
  /** Base URL (scheme + host + port) to put in PROVIDER_BASE_URLS. */ url: string;
  stop(): Promise<void>;
};

export type StandInRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  /** Form fields (application/x-www-form-urlencoded) or the query for GET. */
  form: URLSearchParams;
  /** Parsed JSON body, or null. */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion
  text: string;
  /** Values of the route's `{name}` placeholders, percent-decoded. */
  params: Record<string, string>;
  /** The tag of a base URL ending in `/__from/<tag>` the caller was given (FROM_PREFIX), else null. */
  from: string | null;
  /** Holds this request under `key` until a test releases the key (HELD_PATH); at once when it already has. */
  hold(key: string): Promise<void>;
};

export type Reply = {
  status?: number;
  json?: unknown;
  text?: string;
  /** Raw bytes (a zipped or gzipped report file), sent as they are. */
  bytes?: Buffer;
  redirect?: string;
  headers?: Record<string, string>;
  /**
   * A streamed body (`text/event-stream` unless `headers` say otherwise): the status and headers go
   * out at once, then each chunk as the iterable yields it, so a route's awaits between yields are
   * real delays on the wire. Iteration stops when the caller hangs up (the iterable's `finally` runs).
   */
  stream?: AsyncIterable<string>;
};
export type Route = (req: StandInRequest) => Reply | Promise<Reply>;

/**
 * Where a test reads how many calls a stand-in served: `GET /__stand-in/calls?path=<path>[&method=POST]`
 * → `{"count": n}`; `path` is the percent-decoded request path, e.g. `/v1beta/properties/123:runReport`.
 */
const CALLS_PATH = "/__stand-in/calls";

/**
 * Where a test reads the exact requests a stand-in received (what a write sent the provider):
 * `GET /__stand-in/requests?path=<path>[&method=POST]` → `{"requests": [{method, path, query,
 * headers, json, text, status, account}]}`; `&account=<account>` keeps one account's (`accountOf`), oldest first; `path` as for CALLS_PATH. Every request is kept (reads
 * and writes), at most the last 5000.
 */
const REQUESTS_PATH = "/__stand-in/requests";
/**
 * Answers a test holds until it says so, so a test acts exactly while a request is in flight
 * (kill -9 mid-call) instead of racing a fixed delay. A route calls `req.hold(key)` (e.g. Slack's
 * `hold…` tokens, key = the token); the test then:
 * - `GET /__stand-in/held?key=<key>&arrived=<n>` waits until n requests (default 1) have reached
 *   hold(key), at most `wait_ms` (default 30000) → `{"arrived": a, "held": h, "from": [tag | null, …]}`
 *   (h: not answered yet; from: each arrival's FROM_PREFIX tag, in order);
 * - `POST /__stand-in/release?key=<key>` answers those held and every later one at once → the same.
 * The helpers heldRequests() and releaseHeld() below make these calls.
 */
const HELD_PATH = "/__stand-in/held";
const RELEASE_PATH = "/__stand-in/release";
/**
 * A base URL `<stand-in>/__from/<tag>` in one process's PROVIDER_BASE_URLS (the app keeps a base
 * URL's path) marks that process's calls: the stand-in strips the prefix and records the tag
 * (`from` of held requests), so a test knows which process a call came from.
 */
export const FROM_PREFIX = "/__from/";

export type HeldState = { arrived: number; held: number; from: (string | null)[] };

/** Waits until `arrived` requests have reached the stand-in at `base` held under `key` (throws after `ms`). */
export async function heldRequests(base: string, key: string, arrived = 1, ms = 30_000): Promise<HeldState> {
  const res = await fetch(
    `${base}${HELD_PATH}?${new URLSearchParams({ key, arrived: String(arrived), wait_ms: String(ms) })}`,
  );
  const body = (await res.json()) as HeldState;
  if (body.arrived < arrived)
    throw new Error(
      `timed out after ${ms} ms waiting for ${arrived} request(s) held under ${key} (${body.arrived} arrived)`,
    );
  return body;
}

/** Answers the requests held under `key` and lets every later one through. */
export async function releaseHeld(base: string, key: string): Promise<HeldState> {
  return (await (
    await fetch(`${base}${RELEASE_PATH}?${new URLSearchParams({ key })}`, { method: "POST" })
  ).json()) as HeldState;
}

type Gate = {
  arrived: number;
  from: (string | null)[];
  released: boolean;
  waiting: (() => void)[];
  watchers: (() => void)[];
};

type RecordedRequest = {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage["headers"];
  json: unknown;
  text: string;
  /** The status the stand-in answered (null while a held request waits). */
  status: number | null;
  /** The account the request authenticated as (startStandInServer's `accountOf`), else null. */
  account: string | null;
};

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
function matchRoute(
  routes: Record<string, Route>,
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | null {
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
export async function startStandInServer(
  routes: Record<string, Route>,
  options: {
    /**
     * The provider account a request authenticates as (from its token or key), or null: recorded
     * in the journal as `account`, so a test finds its own calls among parallel tests' (`?account=`).
     */
    accountOf?(req: StandInRequest): string | null;
  } = {},
): Promise<StandIn> {
  const calls = new Map<string, number>();
  const journal: RecordedRequest[] = [];
  const gates = new Map<string, Gate>();
  const gateOf = (key: string) => {
    if (!gates.has(key)) gates.set(key, { arrived: 0, from: [], released: false, waiting: [], watchers: [] });
    return gates.get(key)!;
  };
  const holdFrom = (from: string | null) => (key: string) => {
    const gate = gateOf(key);
    gate.arrived++;
    gate.from.push(from);
    for (const w of gate.watchers.splice(0)) w();
    return gate.released ? Promise.resolve() : new Promise<void>((ok) => gate.waiting.push(ok));
  };
  const gateState = (gate: Gate): HeldState => ({ arrived: gate.arrived, held: gate.waiting.length, from: gate.from });
  const releaseAll = () => {
    for (const gate of gates.values()) {
      gate.released = true;
      for (const ok of gate.waiting.splice(0)) ok();
    }
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    let from: string | null = null;
    if (url.pathname.startsWith(FROM_PREFIX)) {
      const rest = url.pathname.slice(FROM_PREFIX.length);
      from = rest.split("/")[0];
      url.pathname = rest.slice(from.length) || "/";
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    const form = /x-www-form-urlencoded/.test(req.headers["content-type"] ?? "")
      ? new URLSearchParams(text)
      : new URLSearchParams(url.search);
    const method = req.method ?? "GET";
    let reply: Reply;
    if (method === "GET" && url.pathname === CALLS_PATH) {
      const path = url.searchParams.get("path") ?? "";
      const only = url.searchParams.get("method")?.toUpperCase();
      let count = 0;
      for (const [key, n] of calls) if (key.endsWith(` ${path}`) && (!only || key.startsWith(`${only} `))) count += n;
      reply = { json: { count } };
    } else if (method === "GET" && url.pathname === HELD_PATH) {
      const gate = gateOf(url.searchParams.get("key") ?? "");
      const wanted = Number(url.searchParams.get("arrived") ?? 1);
      const waitMs = Math.min(Number(url.searchParams.get("wait_ms") ?? 30_000), 120_000);
      if (gate.arrived < wanted) {
        await new Promise<void>((ok) => {
          const timer = setTimeout(done, waitMs);
          function done() {
            clearTimeout(timer);
            gate.watchers = gate.watchers.filter((w) => w !== check);
            ok();
          }
          function check() {
            if (gate.arrived >= wanted) done();
            else gate.watchers.push(check);
          }
          gate.watchers.push(check);
        });
      }
      reply = { json: gateState(gate) };
    } else if (method === "POST" && url.pathname === RELEASE_PATH) {
      const gate = gateOf(url.searchParams.get("key") ?? "");
      gate.released = true;
      for (const ok of gate.waiting.splice(0)) ok();
      reply = { json: gateState(gate) };
    } else if (method === "GET" && url.pathname === REQUESTS_PATH) {
      const path = url.searchParams.get("path");
      const only = url.searchParams.get("method")?.toUpperCase();
      const account = url.searchParams.get("account");
      reply = {
        json: {
          requests: journal.filter(
            (r) =>
              (path === null || r.path === path) &&
              (!only || r.method === only) &&
              (account === null || r.account === account),
          ),
        },
      };
    } else {
      const counted = `${method} ${safeDecode(url.pathname)}`;
      calls.set(counted, (calls.get(counted) ?? 0) + 1);
      const recorded: RecordedRequest = {
        method,
        path: safeDecode(url.pathname),
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        json,
        text,
        status: null,
        account: null,
      };
      journal.push(recorded);
      if (journal.length > 5000) journal.shift();
      const found = matchRoute(routes, method, url.pathname);
      const request: StandInRequest = {
        method,
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        form,
        json,
        text,
        params: found?.params ?? {},
        from,
        hold: holdFrom(from),
      };
      try {
        recorded.account = options.accountOf?.(request) ?? null;
        reply = found
          ? await found.route(request)
          : {
              status: 404,
              json: { error: "not_found", error_description: `stand-in has no route ${method} ${url.pathname}` },
            };
      } catch (e) {
        reply = { status: 500, json: { error: "stand_in_crashed", error_description: String(e) } };
      }
      recorded.status = reply.status ?? (reply.redirect ? 302 : 200);
    }
    // A held request whose caller died meanwhile (kill -9): nobody to answer.
    if (res.destroyed || req.socket.destroyed) return;
    if (reply.redirect) {
      res.writeHead(reply.status ?? 302, { location: reply.redirect, ...reply.headers });
      res.end();
      return;
    }
    if (reply.stream) {
      res.writeHead(reply.status ?? 200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache",
        ...reply.headers,
      });
      res.flushHeaders();
      for await (const chunk of reply.stream) {
        if (res.destroyed || req.socket.destroyed) break;
        res.write(chunk);
      }
      res.end();
      return;
    }
    const body = reply.bytes ?? (reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? ""));
    res.writeHead(reply.status ?? 200, {
      "content-type": reply.bytes
        ? "application/octet-stream"
        : reply.json !== undefined
          ? "application/json; charset=utf-8"
          : "text/plain; charset=utf-8",
      ...reply.headers,
    });
    res.end(body);
  };
  // A request that fails outside a route (the client hung up mid-body) drops its connection
  // instead of becoming an unhandled rejection in the test runner.
  const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => {
      releaseAll();
      const closed = new Promise<void>((ok) => server.close(() => ok()));
      server.closeAllConnections(); // and a test's HELD_PATH wait, if one is still open
      return closed;
    },
  };
}

/** How providers echo a key back: a recognisable start and end, never the whole key. */
export function masked(key: string, keepStart = 3): string {
  if (key.length < 12) return "*".repeat(Math.max(key.length, 4));
  return `${key.slice(0, keepStart)}${"*".repeat(key.length - keepStart - 4)}${key.slice(-4)}`;
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
export type AuthorizeControls = {
  decision: "approve" | "deny" | "error";
  account: string;
  tokenFailure: string | null;
};
export function authorizeControls(query: URLSearchParams): AuthorizeControls {
  const d = query.get("decision");
  return {
    decision: d === "deny" || d === "error" ? d : "approve",
    account: query.get("account") || "acct_default",
    tokenFailure: query.get("token_failure"),
  };
}

export type IssuedCode = {
  clientId: string;
  redirectUri: string;
  account: string;
  scope: string;
  codeChallenge: string | null;
  tokenFailure: string | null;
  used: boolean;
};

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
    if (redirectUri !== null && c.redirectUri !== redirectUri)
      return "redirect_uri does not match the authorization request";
    if (c.codeChallenge !== null) {
      if (!verifier) return "code_verifier is required";
      if (createHash("sha256").update(verifier).digest("base64url") !== c.codeChallenge)
        return "code_verifier does not match code_challenge";
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
    if (token.startsWith("bad_scope"))
      return { account: `acct_${createHash("sha256").update(token).digest("hex").slice(0, 10)}`, scoped: false };
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
  /** Configuration the app needs beside PROVIDER_BASE_URLS and the OAuth apps (e.g. GOOGLE_ADS_DEVELOPER_TOKEN). */
  env?: Record<string, string>;
  start(): Promise<StandIn>;
};

/**
 * The test control for a provider's rate limit, keyed by the account a token or credential
 * belongs to: an account named `throttled-once…` gets the provider's rate-limit answer on its
 * first API call and normal answers after (a client that retries as the docs say succeeds);
 * `throttled…` gets it on every call (the client must report it). Anything else: null.
 * A stand-in asks this in each API route and answers its provider's own rate-limit reply when true.
 */
export class RateLimits {
  private readonly seen = new Set<string>();
  limited(account: string): boolean {
    if (account.startsWith("throttled-once")) {
      if (this.seen.has(account)) return false;
      this.seen.add(account);
      return true;
    }
    return account.startsWith("throttled");
  }
}
