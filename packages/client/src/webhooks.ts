import type { webhooks } from "./generated/openapi.js";

/** Every event Patchbay sends, discriminated by `type`. */
export type WebhookEvent = {
  [T in keyof webhooks]: webhooks[T]["post"]["requestBody"]["content"]["application/json"];
}[keyof webhooks];
export type WebhookEventType = WebhookEvent["type"];

export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

export type VerifyWebhookOptions = {
  /** How far `webhook-timestamp` may be from now, in seconds (default 300): older deliveries are replays. */
  toleranceSeconds?: number;
  /** The current time in Unix seconds (tests). */
  now?: number;
};

const encoder = new TextEncoder();

/**
 * Verifies a delivery's Standard Webhooks signature and returns its event, typed by `type`.
 * `body` must be the raw request body, byte for byte (a re-serialized object does not verify);
 * `headers` the request's headers (a `Headers`, or Node's `req.headers`); `secret` the endpoint's
 * `whsec_…` secret. Throws WebhookVerificationError when anything does not match. Uses only Web
 * Crypto, so it runs in Node 20+, browsers and edge runtimes alike.
 */
export async function verifyWebhook(
  body: string | Uint8Array | ArrayBuffer,
  headers: HeaderBag,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  if (typeof body !== "string" && !(body instanceof Uint8Array) && !(body instanceof ArrayBuffer)) {
    throw new TypeError(
      "verifyWebhook needs the raw request body (a string or bytes), not a parsed object: the signature covers the exact bytes sent.",
    );
  }
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError("Missing webhook-id, webhook-timestamp or webhook-signature header.");
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError("webhook-timestamp is not a Unix time in seconds.");
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs(now - Number(timestamp)) > tolerance)
    throw new WebhookVerificationError(
      `webhook-timestamp is more than ${tolerance} s from now: an old or replayed delivery.`,
    );

  const key = await crypto.subtle.importKey("raw", secretBytes(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "verify",
  ]);
  const bytes =
    typeof body === "string" ? encoder.encode(body) : body instanceof Uint8Array ? body : new Uint8Array(body);
  const signed = concat(encoder.encode(`${id}.${timestamp}.`), bytes);
  // Several signatures while a rotated secret is still valid: any one of them will do.
  for (const candidate of signatures.split(" ")) {
    const [version, value] = candidate.split(",", 2);
    if (version !== "v1" || !value) continue;
    const signature = base64Bytes(value);
    // crypto.subtle.verify compares in constant time.
    if (signature && (await crypto.subtle.verify("HMAC", key, signature, signed))) return parse(bytes, id);
  }
  throw new WebhookVerificationError(
    "No signature matches: the body was changed, or the secret is not this endpoint's.",
  );
}

function parse(bytes: Uint8Array, id: string): WebhookEvent {
  let event: WebhookEvent;
  try {
    event = JSON.parse(new TextDecoder().decode(bytes)) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError("The signed body is not JSON.");
  }
  if (event?.id !== id) throw new WebhookVerificationError("The body's id is not the webhook-id header.");
  return event;
}

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const value = bag[name] ?? Object.entries(bag).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value.join(" ") : value;
}

function secretBytes(secret: string): Uint8Array<ArrayBuffer> {
  const bytes = base64Bytes(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret);
  if (!bytes || bytes.length === 0)
    throw new TypeError("The webhook secret is not a whsec_… value (base64 after the prefix).");
  return bytes;
}

function base64Bytes(value: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
