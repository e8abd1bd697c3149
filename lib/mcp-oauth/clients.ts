import "server-only";
import { UNSTORABLE } from "@/lib/http/parse";
import http from "node:http";
import https from "node:https";
import { db } from "@/lib/db/client";
import { hitRateLimit } from "@/lib/rate-limit/hit-rate-limit";
import { rateLimits } from "@/lib/rate-limit/limits";
import { newId } from "@/lib/security/ids";
import { privateUrlsAllowed } from "@/lib/webhooks/config";
import { checkUrlShape, pinnedLookup, resolveDeliveryAddresses, UnsafeWebhookUrl } from "@/lib/webhooks/url-safety";
import { OAuthError } from "@/lib/mcp-oauth/oauth-error";
import { MAX_REDIRECT_URIS, redirectUriProblem } from "@/lib/mcp-oauth/redirect-uris";

// The clients of the MCP endpoint's authorization server (CONTRACT §10). A client registers by
// RFC 7591 (Dynamic Client Registration) and gets an id made here, or names itself by the https
// URL of its Client ID Metadata Document, which is fetched here: under the webhook URL guard (no
// private address, no redirect), at most 5 kB within 5 s, and kept as its caching headers say.
// Fetches are counted per client address (OAUTH_CLIENT_METADATA_PER_MINUTE), as registrations
// are; a document no consent has used is deleted an hour after its caching time ends.

export type OAuthClientInfo = {
  id: string;
  kind: "dcr" | "cimd";
  name: string;
  /** The client's own name, or null when it gave none (then `name` is its host). */
  givenName: string | null;
  clientUri: string | null;
  logoUri: string | null;
  redirectUris: string[];
};

/** A registration no consent ever used is forgotten after this. */
const UNUSED_REGISTRATION_MS = 24 * 60 * 60 * 1000;
/**
 * How long past its caching time a document no consent used is kept (then deleted at the next
 * fetch of any document): long enough for a consent under way to finish on the copy it read.
 */
const UNUSED_DOCUMENT_GRACE_MS = 60 * 60 * 1000;
const DOCUMENT_MAX_BYTES = 5 * 1024;
const DOCUMENT_TIMEOUT_MS = 5000;
const CACHE_DEFAULT_S = 10 * 60;
const CACHE_MAX_S = 24 * 60 * 60;
const NAME_MAX = 200;

/** What a registration or a metadata document says about the client, checked. */
function readMetadata(doc: Record<string, unknown>, problem: (m: string) => OAuthError) {
  const uris = doc.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0) throw problem("redirect_uris must be a non-empty array of URIs");
  if (uris.length > MAX_REDIRECT_URIS) throw problem(`redirect_uris: at most ${MAX_REDIRECT_URIS}`);
  uris.forEach((u, i) => {
    const why = redirectUriProblem(u);
    if (why) throw problem(`redirect_uris[${i}] ${why}`);
  });
  const method = doc.token_endpoint_auth_method;
  if (method !== undefined && typeof method !== "string") throw problem("token_endpoint_auth_method must be a string");
  const grants = doc.grant_types;
  if (grants !== undefined && (!Array.isArray(grants) || !grants.includes("authorization_code")))
    throw problem('grant_types must include "authorization_code"');
  const responses = doc.response_types;
  if (responses !== undefined && (!Array.isArray(responses) || !responses.includes("code")))
    throw problem('response_types must include "code"');
  const text = (key: string, max: number) => {
    const v = doc[key];
    if (v === undefined || v === null || v === "") return null;
    if (typeof v !== "string") throw problem(`${key} must be a string`);
    return v.trim().slice(0, max) || null;
  };
  const httpsUrl = (key: string) => {
    const v = text(key, 2000);
    if (!v) return null;
    try {
      return new URL(v).protocol === "https:" ? v : null;
    } catch {
      return null;
    }
  };
  return {
    name: text("client_name", NAME_MAX),
    clientUri: httpsUrl("client_uri"),
    logoUri: httpsUrl("logo_uri"),
    redirectUris: [...new Set(uris as string[])],
    method,
  };
}

/** RFC 7591: registers a public client and answers with what was registered. */
export async function registerClient(body: unknown, ip: string | null) {
  const problem = (m: string) => new OAuthError("invalid_client_metadata", m);
  if (!body || typeof body !== "object" || Array.isArray(body)) throw problem("The body must be a JSON object.");
  const doc = body as Record<string, unknown>;
  if (doc.redirect_uris === undefined) throw new OAuthError("invalid_redirect_uri", "redirect_uris is required.");
  let meta: ReturnType<typeof readMetadata>;
  try {
    meta = readMetadata(doc, problem);
  } catch (e) {
    if (e instanceof OAuthError && e.description.startsWith("redirect_uris"))
      throw new OAuthError("invalid_redirect_uri", e.description);
    throw e;
  }
  // This server issues no client secrets: a client asking for secret-based authentication is
  // registered as public, and the answer says so (RFC 7591 §3.2.1 lets the server replace it).
  const now = new Date();
  await db.oAuthClient.deleteMany({
    where: { kind: "dcr", usedAt: null, createdAt: { lt: new Date(now.getTime() - UNUSED_REGISTRATION_MS) } },
  });
  const id = newId("ocl");
  await db.oAuthClient.create({
    data: {
      id,
      kind: "dcr",
      name: meta.name,
      clientUri: meta.clientUri,
      logoUri: meta.logoUri,
      redirectUris: JSON.stringify(meta.redirectUris),
      registeredIp: ip,
      createdAt: now,
    },
  });
  return {
    client_id: id,
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    client_name: meta.name ?? undefined,
    client_uri: meta.clientUri ?? undefined,
    logo_uri: meta.logoUri ?? undefined,
    redirect_uris: meta.redirectUris,
    token_endpoint_auth_method: "none",
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
  };
}

/** Is `clientId` meant as a Client ID Metadata Document URL? (https, with a path) */
function isMetadataDocumentId(clientId: string): boolean {
  if (!/^https?:\/\//i.test(clientId)) return false;
  try {
    const url = new URL(clientId);
    return (url.protocol === "https:" || (privateUrlsAllowed() && url.protocol === "http:")) && url.pathname !== "/";
  } catch {
    return false;
  }
}

/**
 * What a stored client is called: its own name; nameless, a document's client by its host and a
 * registered one by where it returns people (its first redirect URI's host, or scheme for an app's).
 */
export function clientName(row: { id: string; kind: string; name: string | null; redirectUris: string }): string {
  if (row.name !== null) return row.name;
  if (row.kind === "cimd") return new URL(row.id).host;
  const back = new URL((JSON.parse(row.redirectUris) as string[])[0]);
  return back.host || back.protocol.replace(/:$/, "");
}

function toInfo(row: {
  id: string;
  kind: string;
  name: string | null;
  clientUri: string | null;
  logoUri: string | null;
  redirectUris: string;
}): OAuthClientInfo {
  return {
    id: row.id,
    kind: row.kind === "cimd" ? "cimd" : "dcr",
    name: clientName(row),
    givenName: row.name,
    clientUri: row.clientUri,
    logoUri: row.logoUri,
    redirectUris: JSON.parse(row.redirectUris) as string[],
  };
}

const CLIENT_SELECT = {
  id: true,
  kind: true,
  name: true,
  clientUri: true,
  logoUri: true,
  redirectUris: true,
  createdAt: true,
  usedAt: true,
  cachedUntil: true,
} as const;

/**
 * The client `clientId` names, or an OAuthError (`invalid_client`) saying why there is none:
 * an unknown or expired registration, or a metadata document that cannot be fetched or is wrong;
 * `temporarily_unavailable` when the address asking (`ip`) has had its fill of document fetches.
 */
export async function resolveClient(clientId: string, ip: string | null = null): Promise<OAuthClientInfo> {
  if (!clientId) throw new OAuthError("invalid_request", "client_id is required.");
  if (clientId.length > 2000) throw new OAuthError("invalid_client", "client_id is longer than 2000 characters.");
  // PostgreSQL refuses a NUL or half a surrogate pair in any text it is asked to find.
  if (UNSTORABLE.test(clientId))
    throw new OAuthError(
      "invalid_client",
      "client_id holds a character no client id contains (NUL, or half of a surrogate pair); no client is registered under it.",
      401,
    );
  const row = await db.oAuthClient.findUnique({ where: { id: clientId }, select: CLIENT_SELECT });
  if (isMetadataDocumentId(clientId)) {
    if (row && row.cachedUntil && row.cachedUntil.getTime() > Date.now()) return toInfo(row);
    const rule = rateLimits().oauthClientMetadata;
    const limit = await hitRateLimit(rule, ip ?? "unknown");
    if (!limit.allowed) {
      // Nothing is fetched or stored past the limit; a copy fetched before still serves.
      if (row) return toInfo(row);
      throw new OAuthError(
        "temporarily_unavailable",
        `Patchbay fetches at most ${rule.limit} apps' metadata documents a minute for one address, and yours reached that. Try again in ${limit.resetSeconds} s.`,
        429,
      );
    }
    try {
      return toInfo(await fetchMetadataDocument(clientId));
    } catch (e) {
      // The client's host cannot be reached just now (or turned this server away, as bot walls do):
      // the copy fetched and checked before still names it. A document that answered wrong is refused.
      if (row && e instanceof OAuthError && e.unreachable) return toInfo(row);
      throw e;
    }
  }
  if (!row || row.kind !== "dcr")
    throw new OAuthError("invalid_client", `No client ${JSON.stringify(clientId)} is registered here.`, 401);
  if (!row.usedAt && Date.now() - row.createdAt.getTime() > UNUSED_REGISTRATION_MS)
    throw new OAuthError("invalid_client", "This client registration expired unused; register again.", 401);
  return toInfo(row);
}

/** Fetches, checks and stores the document at `url` (the client id). */
async function fetchMetadataDocument(url: string) {
  const fail = (m: string) => new OAuthError("invalid_client", `The client's metadata document at ${url}: ${m}`, 401);
  let fetched: { status: number; body: string; cacheControl: string | null };
  try {
    fetched = await getDocument(url);
  } catch (e) {
    if (e instanceof UnsafeWebhookUrl) throw fail(e.message.replace(/webhooks go/, "documents are fetched"));
    throw Object.assign(fail((e as Error).message), { unreachable: true });
  }
  if (fetched.status !== 200) {
    const redirect = fetched.status >= 300 && fetched.status < 400 ? " (redirects are not followed)" : "";
    throw Object.assign(fail(`answered HTTP ${fetched.status}${redirect}.`), { unreachable: !redirect });
  }
  let doc: unknown;
  try {
    doc = JSON.parse(fetched.body);
  } catch {
    throw fail("is not JSON.");
  }
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) throw fail("is not a JSON object.");
  const d = doc as Record<string, unknown>;
  if (d.client_id !== url) throw fail(`its client_id (${JSON.stringify(d.client_id)}) is not its own URL.`);
  if (d.client_secret !== undefined || d.client_secret_expires_at !== undefined)
    throw fail("a metadata document must not hold a client secret.");
  const meta = readMetadata(d, (m) => fail(`${m}.`));
  // A client may offer several methods (ChatGPT's document names private_key_jwt, and "none" in
  // token_endpoint_auth_methods_supported): it is served as a public client when "none" is among them.
  const plural = d.token_endpoint_auth_methods_supported;
  const offered: unknown[] = [meta.method, ...(Array.isArray(plural) ? (plural as unknown[]) : [])];
  if (meta.method !== undefined && !offered.includes("none"))
    throw fail(
      `token_endpoint_auth_method ${JSON.stringify(meta.method)} is not supported here; this server takes "none".`,
    );
  const now = Date.now();
  const cachedUntil = new Date(now + cacheSeconds(fetched.cacheControl) * 1000);
  // Documents no consent ever used are not kept past their caching time (and a grace): fetching
  // one again costs no more than keeping it, and what nobody allowed has no claim on the disk.
  await db.oAuthClient.deleteMany({
    where: {
      kind: "cimd",
      id: { not: url },
      usedAt: null,
      grants: { none: {} },
      OR: [{ cachedUntil: null }, { cachedUntil: { lt: new Date(now - UNUSED_DOCUMENT_GRACE_MS) } }],
    },
  });
  const data = {
    kind: "cimd",
    name: meta.name,
    clientUri: meta.clientUri,
    logoUri: meta.logoUri,
    redirectUris: JSON.stringify(meta.redirectUris),
    cachedUntil,
  };
  return db.oAuthClient.upsert({
    where: { id: url },
    create: { id: url, ...data },
    update: data,
    select: CLIENT_SELECT,
  });
}

/** How long a document may be kept: its max-age (no-store or no-cache: not kept), within a day. */
function cacheSeconds(header: string | null): number {
  if (!header) return CACHE_DEFAULT_S;
  if (/\b(no-store|no-cache)\b/i.test(header)) return 0;
  const age = /\bmax-age=(\d+)/i.exec(header);
  return age ? Math.min(Number(age[1]), CACHE_MAX_S) : CACHE_DEFAULT_S;
}

/** One GET under the URL guard: the checked address only, no redirects, size and time capped. */
async function getDocument(raw: string): Promise<{ status: number; body: string; cacheControl: string | null }> {
  const url = checkUrlShape(raw);
  const [target] = await resolveDeliveryAddresses(url);
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.get(
      url,
      {
        lookup: pinnedLookup(target),
        headers: { accept: "application/json", "user-agent": "Patchbay (OAuth client metadata)" },
        timeout: DOCUMENT_TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > DOCUMENT_MAX_BYTES) {
            req.destroy();
            reject(new Error(`is larger than ${DOCUMENT_MAX_BYTES} bytes.`));
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
            cacheControl: res.headers["cache-control"] ?? null,
          }),
        );
        res.on("error", reject);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`did not answer within ${DOCUMENT_TIMEOUT_MS / 1000} s.`));
    }, DOCUMENT_TIMEOUT_MS);
    req.on("close", () => clearTimeout(timer));
    req.on("timeout", () => req.destroy(new Error(`did not answer within ${DOCUMENT_TIMEOUT_MS / 1000} s.`)));
    req.on("error", (e) => reject(new Error(`could not be fetched (${e.message}).`)));
  });
}
