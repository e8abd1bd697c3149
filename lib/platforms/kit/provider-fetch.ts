import "server-only";
import { bytes as sizeOf, providerMaxResponseBytes } from "@/lib/config/limits";
import {
  CredentialRejected,
  ProviderRejection,
  ProviderUnavailable,
  UnsendableCredential,
  type ConnectionTypeDefinition,
} from "@/lib/platforms/kit/types";

const TIMEOUT_MS = Number(process.env.PROVIDER_TIMEOUT_MS ?? 10_000);
/**
 * A provider's rate-limit answer (HTTP 429) is tried again at most this many times, after the
 * wait its Retry-After asks for (seconds or an HTTP date; 1 s, then 2 s when it names none), as
 * the providers' docs ask of clients; a longer wait than RATE_LIMIT_MAX_WAIT_MS is not waited
 * out: the 429 reaches the platform, which reports it (rateLimitReason).
 */
const RATE_LIMIT_RETRIES = 2;
const RATE_LIMIT_MAX_WAIT_MS = 5_000;

let overrides: Record<string, string> | undefined;
function baseUrlOverrides(): Record<string, string> {
  if (overrides) return overrides;
  try {
    overrides = JSON.parse(process.env.PROVIDER_BASE_URLS || "{}") as Record<string, string>;
  } catch {
    throw new Error("PROVIDER_BASE_URLS must be a JSON object of connection type → base URL.");
  }
  return overrides;
}

export type HostedType = Pick<ConnectionTypeDefinition, "type" | "name" | "hosts">;

/** `type` among a platform's own types; an unknown type has no hosts, so every call is refused. */
export function hostedType(types: readonly HostedType[], type: string): HostedType {
  return types.find((t) => t.type === type) ?? { type, name: type, hosts: [] };
}

/**
 * The URL a type really calls, after proving it goes where the type's provider lives: its host
 * must be one of the type's `hosts` (or the PROVIDER_BASE_URLS override), over HTTPS, without
 * credentials, dot segments, backslashes or a fragment. So no id, domain or site URL a caller
 * sends can steer a request to another host, however it is spelled. PROVIDER_BASE_URLS
 * (CONTRACT §5) then replaces scheme and host, keeping the path, so tests can point real types
 * at local stand-ins that speak the provider's wire format.
 */
export function providerUrl(def: HostedType, url: string): string {
  const base = baseUrlOverrides()[def.type];
  const original = checkedUrl(def, url, base);
  if (!base) return original.toString();
  const target = new URL(base);
  const basePath = target.pathname.replace(/\/+$/, "");
  return `${target.protocol}//${target.host}${basePath}${original.pathname}${original.search}`;
}

function checkedUrl(def: HostedType, url: string, override: string | undefined): URL {
  const refuse = (why: string): never => {
    throw new ProviderRejection(def.name, `refused to call ${JSON.stringify(url.slice(0, 200))}: ${why}`);
  };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse("it is not a URL");
  }
  if (parsed.username || parsed.password) refuse("a provider URL carries no credentials");
  // What the URL parser would silently resolve or drop: the raw text must not hold it.
  const rawPath = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, "").split("?")[0];
  if (url.includes("#")) refuse("a provider URL has no fragment");
  if (url.includes("\\")) refuse("a provider URL has no backslash");
  if (rawPath.split("/").some((segment) => /^(\.|%2e){1,2}$/i.test(segment)))
    refuse("a provider URL has no . or .. path segment");
  const allowed = [...def.hosts, ...(override ? [new URL(override).origin] : [])];
  if (!allowed.some((entry) => hostMatches(entry, parsed)))
    refuse(`${parsed.host} is not one of ${def.name}'s hosts (${def.hosts.join(", ")})`);
  return parsed;
}

/** "api.example.com" (HTTPS, default port), "*.example.com" (one DNS label under it), or an exact origin "http://127.0.0.1:3000". */
function hostMatches(entry: string, url: URL): boolean {
  if (entry.includes("://")) return url.origin === new URL(entry).origin;
  if (url.protocol !== "https:" || url.port !== "") return false;
  if (entry.startsWith("*.")) {
    const suffix = entry.slice(1);
    return (
      url.hostname.endsWith(suffix) && /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(url.hostname.slice(0, -suffix.length))
    );
  }
  return url.hostname === entry;
}

/**
 * `bytes`: the raw body, for the report files providers serve compressed (ZIP, gzip). `retryAfter`:
 * the Retry-After header, which a 429 carries (rateLimitReason reports it).
 */
export type ProviderResponse = {
  status: number;
  body: unknown;
  text: string;
  bytes?: Buffer;
  retryAfter?: string | null;
};

/**
 * A provider's answer past PROVIDER_MAX_RESPONSE_BYTES: not read further, nothing of it kept. The
 * request reached the provider (a write may have been applied: `maybeApplied`), and the same call
 * would answer as much again.
 */
class ProviderAnswerTooLarge extends ProviderUnavailable {
  constructor(providerName: string, limit: number, announced?: number) {
    super(
      providerName,
      `${providerName}'s answer was larger than ${sizeOf(limit)}, the limit of a provider's answer (PROVIDER_MAX_RESPONSE_BYTES)${announced ? `: it announced ${sizeOf(announced)}` : ""}; it was not read further and nothing of it was stored.`,
      true,
    );
  }
}

/**
 * One bounded HTTP call to a provider: never hangs, never reads more than
 * PROVIDER_MAX_RESPONSE_BYTES, and failures name the provider.
 */
export async function providerFetch(
  providerName: string,
  def: HostedType,
  url: string,
  init: RequestInit = {},
): Promise<ProviderResponse> {
  for (const value of Object.values((init.headers ?? {}) as Record<string, string>)) {
    if (/[^\t\x20-\x7e\x80-\xff]/.test(value)) throw new UnsendableCredential(providerName);
  }
  const target = providerUrl(def, url);
  for (let attempt = 0; ; attempt++) {
    const answer = await fetchOnce(providerName, target, init);
    const wait =
      attempt < RATE_LIMIT_RETRIES && answer.status === 429 ? retryAfterMs(answer.retryAfter, attempt) : null;
    if (wait === null) return answer;
    await new Promise((ok) => setTimeout(ok, wait));
  }
}

/** How long a 429 asks to wait before the next try, or null when longer than a call should wait. */
function retryAfterMs(header: string | null, attempt: number): number | null {
  let ms = 1000 * 2 ** attempt;
  if (header && /^\d+$/.test(header.trim())) ms = Number(header.trim()) * 1000;
  else if (header && !Number.isNaN(Date.parse(header))) ms = Math.max(0, Date.parse(header) - Date.now());
  return ms <= RATE_LIMIT_MAX_WAIT_MS ? ms : null;
}

async function fetchOnce(
  providerName: string,
  target: string,
  init: RequestInit,
): Promise<ProviderResponse & { retryAfter: string | null }> {
  let res: Response;
  try {
    res = await fetch(target, { ...init, redirect: "manual", signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } };
    const why =
      err.name === "TimeoutError" ? `no answer within ${TIMEOUT_MS / 1000} s` : (err.cause?.code ?? err.message);
    // Refused or unresolvable before a connection existed: nothing was sent. Otherwise it may have been.
    const unsent = ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"].includes(
      err.cause?.code ?? "",
    );
    throw new ProviderUnavailable(providerName, `Could not reach ${providerName}: ${why}.`, !unsent);
  }
  const bytes = await boundedBody(providerName, res);
  const text = bytes.toString("utf8");
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: res.status, body, text, bytes, retryAfter: res.headers.get("retry-after") };
}

/**
 * The body of `res`, read chunk by chunk and given up (the stream cancelled) once past
 * PROVIDER_MAX_RESPONSE_BYTES, or at once when its content-length says it would be. A body that
 * breaks off (the timeout, a dropped connection) reads as empty, as before.
 */
async function boundedBody(providerName: string, res: Response): Promise<Buffer> {
  const limit = providerMaxResponseBytes();
  const announced = Number(res.headers.get("content-length") ?? "");
  if (Number.isFinite(announced) && announced > limit) {
    await res.body?.cancel().catch(() => undefined);
    throw new ProviderAnswerTooLarge(providerName, limit, announced);
  }
  if (!res.body) return Buffer.alloc(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        throw new ProviderAnswerTooLarge(providerName, limit);
      }
      chunks.push(value);
    }
  } catch (e) {
    if (e instanceof ProviderAnswerTooLarge) throw e;
    return Buffer.alloc(0);
  }
  return Buffer.concat(chunks, total);
}

/**
 * A rate-limit answer a platform reports (after providerFetch's retries): the provider's own
 * words plus how long it asked to wait, e.g. "Pinterest's rate limit was reached (code 29: …); it
 * asks to wait 60 s before trying again."
 */
export function rateLimitReason(providerName: string, res: ProviderResponse, reason: string): string {
  const after = res.retryAfter;
  const wait = after && /^\d+$/.test(after.trim()) ? `; it asks to wait ${after.trim()} s before trying again` : "";
  return `${providerName}'s rate limit was reached (${reason.replace(/[.]+$/, "")})${wait}.`;
}

/** A provider's refusal of a call: a 401 (RFC 6750 `invalid_token`) refuses the credential itself. */
export function rejection(providerName: string, res: ProviderResponse, reason: string): ProviderRejection {
  return res.status === 401
    ? new CredentialRejected(providerName, reason)
    : new ProviderRejection(providerName, reason);
}

/**
 * "error: error_description" from an OAuth-style or generic JSON error body; also Shopify's
 * `{errors: "text"}` / `{errors: {field: ["text"]}}` and JSON:API's `{errors: [{code, title, detail}]}` (Klaviyo).
 */
export function providerReason(res: ProviderResponse): string {
  const b = (res.body ?? {}) as Record<string, unknown>;
  const nested = (b.error && typeof b.error === "object" ? b.error : {}) as Record<string, unknown>;
  const code = typeof b.error === "string" ? b.error : (nested.type ?? nested.code ?? nested.status);
  const description = b.error_description ?? b.message ?? nested.message ?? b.detail;
  if (code && description) return `${String(code)}: ${String(description)}`;
  if (code || description) return String(code ?? description);
  const errors = errorsReason(b.errors);
  if (errors) return errors;
  return res.text ? `HTTP ${res.status}: ${res.text.slice(0, 200)}` : `HTTP ${res.status}`;
}

function errorsReason(errors: unknown): string | null {
  if (typeof errors === "string" && errors) return errors;
  if (Array.isArray(errors)) {
    const parts = errors.map((e) => {
      if (typeof e === "string") return e;
      const o = (e && typeof e === "object" ? e : {}) as Record<string, unknown>;
      const text = o.detail ?? o.title ?? o.message;
      return [o.code, text]
        .filter((v) => v !== undefined && v !== null && v !== "")
        .map(String)
        .join(": ");
    });
    return parts.filter(Boolean).join("; ") || null;
  }
  if (errors && typeof errors === "object") {
    const parts = Object.entries(errors).map(
      ([field, v]) => `${field} ${Array.isArray(v) ? v.map(String).join(", ") : String(v)}`,
    );
    return parts.join("; ") || null;
  }
  return null;
}
