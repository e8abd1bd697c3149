import http from "node:http";
import fc from "fast-check";
import { baseURL, cli, seedTeam, type SeededTeam } from "../fixtures";

// Shared by the hostile-input and isolation suites: raw HTTP (so paths, headers and bodies go
// out byte for byte as written), a signed-in dashboard session, and fast-check arbitraries of
// the input kinds an attacker or a broken client sends.

export type RawResponse = { status: number; headers: http.IncomingHttpHeaders; text: string; ms: number };

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

type RawOptions = { headers?: Record<string, string>; body?: string | Buffer; chunked?: boolean; timeoutMs?: number };

/**
 * One request exactly as given: `path` is sent raw (percent-escapes and all); `chunked` streams
 * the body without Content-Length. A request that went out on a kept-alive socket the server
 * closed at that moment (its keep-alive timeout) is sent again once, on a fresh one, as Node's
 * documentation advises: that reset says nothing about the answer.
 */
export async function raw(method: string, path: string, options: RawOptions = {}): Promise<RawResponse> {
  try {
    return await rawOnce(method, path, options);
  } catch (e) {
    if (
      (e as { reusedSocket?: boolean }).reusedSocket &&
      ["ECONNRESET", "EPIPE"].includes((e as { code?: string }).code ?? "")
    )
      return rawOnce(method, path, options);
    throw e;
  }
}

function rawOnce(method: string, path: string, options: RawOptions): Promise<RawResponse> {
  const url = new URL(baseURL());
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...options.headers };
    if (options.body !== undefined && !options.chunked) headers["content-length"] = Buffer.byteLength(options.body);
    if (options.chunked) headers["transfer-encoding"] = "chunked";
    // A redirect of a long URL repeats it in Location and Refresh (the framework's 308): past
    // Node's default 16 KB of response headers, which is a client's own limit, not the server's.
    const req = http.request({
      agent,
      host: url.hostname,
      port: url.port,
      path,
      method,
      headers,
      timeout: options.timeoutMs ?? 30_000,
      maxHeaderSize: 64 * 1024,
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (d: Buffer) => chunks.push(d));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString("utf8"),
          ms: Date.now() - started,
        }),
      );
    });
    req.on("timeout", () =>
      req.destroy(new Error(`no answer within ${options.timeoutMs ?? 30_000} ms: ${method} ${path.slice(0, 100)}`)),
    );
    req.on("error", (e) => reject(Object.assign(e, { reusedSocket: req.reusedSocket })));
    if (options.body === undefined) return void req.end();
    if (!options.chunked) return void req.end(options.body);
    const body = Buffer.isBuffer(options.body) ? options.body : Buffer.from(options.body);
    let at = 0;
    const pump = () => {
      while (at < body.length) {
        const chunk = body.subarray(at, at + 64 * 1024);
        at += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end();
    };
    req.on("error", () => {}); // the server may answer 413 and close before the whole body is sent
    pump();
  });
}

/** What is wrong with an answer (null when nothing): a 5xx, or a non-2xx that is not JSON with a `detail`. */
export function problem(res: RawResponse, what: string): string | null {
  const line = `${what.slice(0, 300)} → ${res.status} ${(res.headers["content-type"] ?? "").split(";")[0]} ${res.text.slice(0, 200)}`;
  if (res.status >= 500 || res.status === 0) return line;
  // 2xx, and Next's 308 from a trailing slash to the canonical path (an empty id), are answers.
  if (res.status >= 200 && res.status < 400) return null;
  if (!/^application\/json/.test(res.headers["content-type"] ?? "")) return line;
  try {
    const body = JSON.parse(res.text);
    if (body === null || typeof body !== "object" || body.detail === undefined || body.detail === null) return line;
  } catch {
    return line;
  }
  return null;
}

/** A team with a password, two members, data of every kind, an MCP server with a token, and the owner's dashboard session. */
export async function hostileWorld(password = "correct horse battery staple") {
  const team: SeededTeam = await seedTeam({ password, members: 2 });
  const owner = team.users[0];
  const bearer = { authorization: `Bearer ${owner.key}` };
  const post = async (path: string, data: unknown) =>
    JSON.parse(
      (
        await raw("POST", path, {
          headers: { ...bearer, "content-type": "application/json" },
          body: JSON.stringify(data),
        })
      ).text,
    );
  const connection = await post("/v1/connections", {
    connection_type: "sandbox_key",
    name: "hostile target",
    credentials: { api_key: "sk_hostile" },
  });
  const link = await post("/v1/connections/auth-link", {
    connection_type: "sandbox_oauth",
    external_id: "hostile-ext",
  });
  await cli(
    "activity",
    "simulate",
    "--team",
    team.id,
    "--workflow-runs",
    "1",
    "--mcp-calls",
    "2",
    "--agent-conversations",
    "0",
    "--copilot-uses",
    "0",
    "--days",
    "1",
  );
  const logs = JSON.parse((await raw("GET", "/v1/logs?limit=1", { headers: bearer })).text);
  const mcp = await cli(
    "mcp",
    "create",
    "--team",
    team.id,
    "--user",
    owner.id,
    "--name",
    "Hostile MCP",
    "--connections",
    connection.id,
  );
  const session = await signInCookie(owner.email, password);
  return {
    team,
    owner,
    bearer,
    connection,
    link,
    log: logs.data[0],
    mcpServer: mcp.json.id as string,
    mcpToken: mcp.json.token as string,
    session,
  };
}

/** A next-auth session cookie for email/password, through the credentials callback as the sign-in page posts it. */
export async function signInCookie(email: string, password: string): Promise<string> {
  const csrf = await raw("GET", "/api/auth/csrf");
  const csrfCookies = cookiesOf(csrf);
  const { csrfToken } = JSON.parse(csrf.text);
  const form = new URLSearchParams({ csrfToken, email, password, callbackUrl: baseURL(), json: "true" }).toString();
  const res = await raw("POST", "/api/auth/callback/credentials", {
    headers: { cookie: csrfCookies, "content-type": "application/x-www-form-urlencoded" },
    body: form,
  });
  const cookie = cookiesOf(res)
    .split("; ")
    .find((c) => /next-auth\.session-token/.test(c));
  if (!cookie) throw new Error(`sign-in failed for ${email}: ${res.status} ${res.text.slice(0, 200)}`);
  return cookie;
}

const cookiesOf = (res: RawResponse) => (res.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");

// ——— arbitraries ———

/** Strings no well-behaved client sends: lone surrogates, NUL, bidi marks, emoji, traversal, reserved URL characters, pollution keys. */
export const nastyAtom = fc.constantFrom(
  "\ud800",
  "\udfff",
  "\udc00\ud800",
  "\u0000",
  "\u202e",
  "\u200f",
  "\u200b",
  "\ufeff",
  "\uffff",
  "😀",
  "👩‍👩‍👧",
  "é",
  "ß",
  "ﷺ",
  "..",
  "../",
  "..%2f",
  "%2e%2e",
  "/",
  "\\",
  "@",
  "#",
  "?",
  "&",
  "=",
  "%",
  "%00",
  "%zz",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "' OR 1=1 --",
  '"',
  "{}",
  "[]",
  "null",
  "-1",
  "1e309",
  "9".repeat(400),
  " ",
  "\n",
  "\r\n",
  "\t",
);

export const nastyString = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .array(
        fc.oneof(nastyAtom, fc.string({ unit: "binary", maxLength: 8 }), fc.string({ unit: "grapheme", maxLength: 8 })),
        { maxLength: 6 },
      )
      .map((parts) => parts.join("")),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "x".repeat(10_001),
      "é".repeat(10_001),
      "😀".repeat(5_001),
      "\u0000".repeat(10_001),
      "%".repeat(10_001),
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
);

/** UTF-8 percent-encoding that, unlike encodeURIComponent, also writes lone surrogates (as the CESU bytes no decoder accepts). */
export function percentEncode(value: string): string {
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const next = value.charCodeAt(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(value[i] + value[i + 1]);
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out += `%${(0xe0 | (code >> 12)).toString(16).toUpperCase()}%${(0x80 | ((code >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (code & 0x3f)).toString(16).toUpperCase()}`;
    } else out += encodeURIComponent(value[i]);
  }
  return out;
}

/** A hostile string as a path segment, query value or header would carry it, under Node's 16 KB header limit. */
export const encodedNasty = fc
  .constant(null)
  .chain(() => nastyString.map((v) => percentEncode(v)).filter((v) => v.length <= 12_000));

// Node's HTTP parser answers a request line and headers over 16 KB itself (a bare 431, before
// the app runs), so generated ids stay under that: 10k-12k characters as sent.

/** A path segment as sent: encoded, half-encoded, or with invalid percent-escapes. */
export const pathSegment = fc.oneof(
  { weight: 4, arbitrary: encodedNasty },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "%",
      "%zz",
      "%FF",
      "%C0%AF",
      "%ED%A0%80",
      "%E0%A4%A",
      "abc%",
      "%%",
      "%2F..%2F..",
      "..",
      ".",
      "%2e%2e",
      "%5C",
      "%23",
      "%3F",
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom("x".repeat(10_001), "9".repeat(12_000), percentEncode("é".repeat(1_700))) },
);

/** JSON values of the wrong type, huge or negative numbers, deep-ish nesting and pollution keys. */
export const nastyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    nastyString,
    fc.constantFrom(
      null,
      true,
      false,
      0,
      -0,
      -1,
      1.5,
      1e308,
      -1e308,
      Number.MAX_SAFE_INTEGER + 2,
      -Number.MAX_SAFE_INTEGER * 4,
      2 ** 63,
      2 ** 64,
    ),
    fc.integer(),
    fc.double(),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(nastyString, fc.constantFrom("__proto__", "constructor", "prototype")), tie("value"), {
      maxKeys: 4,
    }),
  ),
})).value;

/** The JSON text of an object, sometimes with a key repeated (which JSON.stringify cannot write). */
export function jsonText(entries: [string, unknown][], duplicate: boolean): string {
  const parts = entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? "null"}`);
  if (duplicate && parts.length) parts.push(parts[0].replace(/:.*$/s, ':"duplicate"'), parts[0]);
  return `{${parts.join(",")}}`;
}

export const contentType = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/xml",
  "",
  "application/json; charset=utf-16",
  "*/*",
);

export const RUNS = Number(process.env.HOSTILE_RUNS ?? 150);
