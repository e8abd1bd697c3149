import "server-only";
import { ProviderUnavailable, UnsendableCredential } from "@/lib/providers/types";

const TIMEOUT_MS = Number(process.env.PROVIDER_TIMEOUT_MS ?? 10_000);

let overrides: Record<string, string> | undefined;
function baseUrlOverrides(): Record<string, string> {
  if (overrides) return overrides;
  try {
    overrides = JSON.parse(process.env.PROVIDER_BASE_URLS || "{}");
  } catch {
    throw new Error("PROVIDER_BASE_URLS must be a JSON object of connection type → base URL.");
  }
  return overrides!;
}

/**
 * The URL a type really calls: PROVIDER_BASE_URLS (CONTRACT §5) replaces scheme and host of
 * every URL the type calls or redirects to, keeping the path, so tests can point real types
 * at local stand-ins that speak the provider's wire format.
 */
export function providerUrl(type: string, url: string): string {
  const base = baseUrlOverrides()[type];
  if (!base) return url;
  const original = new URL(url);
  const target = new URL(base);
  const basePath = target.pathname.replace(/\/+$/, "");
  return `${target.protocol}//${target.host}${basePath}${original.pathname}${original.search}`;
}

export type ProviderResponse = { status: number; body: unknown; text: string };

/** One bounded HTTP call to a provider: never hangs, and failures name the provider. */
export async function providerFetch(providerName: string, type: string, url: string, init: RequestInit = {}): Promise<ProviderResponse> {
  for (const value of Object.values((init.headers ?? {}) as Record<string, string>)) {
    if (/[^\t\x20-\x7e\x80-\xff]/.test(value)) throw new UnsendableCredential(providerName);
  }
  let res: Response;
  try {
    res = await fetch(providerUrl(type, url), { ...init, redirect: "manual", signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } };
    const why = err.name === "TimeoutError" ? `no answer within ${TIMEOUT_MS / 1000} s` : (err.cause?.code ?? err.message);
    throw new ProviderUnavailable(providerName, `Could not reach ${providerName}: ${why}.`);
  }
  const text = await res.text().catch(() => "");
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: res.status, body, text };
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
      return [o.code, text].filter((v) => v !== undefined && v !== null && v !== "").map(String).join(": ");
    });
    return parts.filter(Boolean).join("; ") || null;
  }
  if (errors && typeof errors === "object") {
    const parts = Object.entries(errors).map(([field, v]) => `${field} ${Array.isArray(v) ? v.map(String).join(", ") : String(v)}`);
    return parts.join("; ") || null;
  }
  return null;
}
