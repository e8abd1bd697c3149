// Masks secrets before anything is written to a log. Two rules: values under a key whose name
// says it holds a secret are dropped whole, and any string is scrubbed of what looks like a
// Patchbay key or token (pbk_…, pbm_…) or a bearer credential, wherever it appears (an error
// message, a URL, a stack).

const REDACTED = "[redacted]";

const SECRET_KEY = /pass(word)?|secret|token|credential|api[-_]?key|authorization|cookie|private[-_]?key/i;
// 16 or more characters: a whole key or token (40), not the 12-character prefix the dashboard shows.
const PATCHBAY_SECRET = /\bpb[km]_[0-9A-Za-z]{16,}/g;
const BEARER = /\b(Bearer|Basic)\s+[^\s"',;]+/gi;
// A webhook endpoint's signing secret (CONTRACT §6).
const WEBHOOK_SECRET = /\bwhsec_[0-9A-Za-z+/=]{16,}/g;

export function redactString(text: string): string {
  return text
    .replace(PATCHBAY_SECRET, (m) => `${m.slice(0, 4)}${REDACTED}`)
    .replace(BEARER, `$1 ${REDACTED}`)
    .replace(WEBHOOK_SECRET, `whsec_${REDACTED}`);
}

const isSecretKey = (key: string) => SECRET_KEY.test(key);

/** A copy of `value` safe to log; cycles and depth beyond 8 are cut. */
export function redact(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === "string") return redactString(value);
  if (typeof value === "bigint") return value.toString();
  if (value === null || typeof value !== "object") return value;
  if (seen.has(value) || depth > 8) return "[…]";
  seen.add(value);
  if (value instanceof Error) {
    const out: Record<string, unknown> = { name: value.name, message: redactString(value.message) };
    if (value.stack) out.stack = redactString(value.stack);
    const code = (value as { code?: unknown }).code;
    if (code !== undefined) out.code = redact(code, depth + 1, seen);
    return out;
  }
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1, seen));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    out[k] = isSecretKey(k) && v !== null && v !== undefined && v !== "" ? REDACTED : redact(v, depth + 1, seen);
  return out;
}
