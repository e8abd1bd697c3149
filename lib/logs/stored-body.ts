import { jsonBytesWithin, logBodyMaxBytes, utf8Bytes } from "@/lib/config/limits";

// A log's input or output as it is stored: its JSON when that fits in LOG_BODY_MAX_BYTES, else a
// marker that is still valid JSON, says it was cut and how big the original was, and keeps the
// beginning of the original JSON text so a person can see what it was:
//   {"truncated": true, "original_bytes": 5242917, "limit_bytes": 1048576, "preview": "{\"rows\":[{\"date\":…"}
// GET /v1/logs/{id} returns the marker as the log's `input` or `output`; the log detail panel
// shows it as a note and the preview. Pure, so the dashboard can recognise the marker too.

export type TruncatedBody = { truncated: true; original_bytes: number; limit_bytes: number; preview: string };

export function isTruncatedBody(value: unknown): value is TruncatedBody {
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return (
    v.truncated === true &&
    typeof v.original_bytes === "number" &&
    typeof v.limit_bytes === "number" &&
    typeof v.preview === "string" &&
    Object.keys(v).length === 4
  );
}

/** JSON text to be spliced in as it is (an item's separator, a key, a closing bracket). */
class Raw {
  constructor(readonly text: string) {}
}

/** The first `maxChars` characters of `JSON.stringify(value)`, built without building the rest. */
export function jsonPrefix(value: unknown, maxChars: number): string {
  let out = "";
  const stack: unknown[] = [value];
  while (stack.length && out.length < maxChars) {
    let v = stack.pop();
    if (v instanceof Raw) {
      out += v.text;
      continue;
    }
    if (v && typeof v === "object" && typeof (v as { toJSON?: unknown }).toJSON === "function")
      v = (v as { toJSON: () => unknown }).toJSON();
    if (typeof v === "string") out += JSON.stringify(v.length > maxChars ? v.slice(0, maxChars) : v);
    else if (typeof v === "number" || typeof v === "boolean") out += JSON.stringify(v);
    else if (typeof v === "bigint") out += String(v);
    else if (v === null || typeof v !== "object") out += "null";
    else if (Array.isArray(v)) {
      out += "[";
      // Every item is at least one character: the ones past maxChars are never reached.
      const items = v.slice(0, maxChars);
      stack.push(new Raw("]"));
      for (let i = items.length - 1; i >= 0; i--) {
        stack.push(items[i]);
        if (i > 0) stack.push(new Raw(","));
      }
    } else {
      out += "{";
      const entries = Object.entries(v as Record<string, unknown>)
        .filter(([, x]) => x !== undefined && typeof x !== "function" && typeof x !== "symbol")
        .slice(0, maxChars);
      stack.push(new Raw("}"));
      for (let i = entries.length - 1; i >= 0; i--) {
        stack.push(entries[i][1], new Raw(`${JSON.stringify(entries[i][0])}:`));
        if (i > 0) stack.push(new Raw(","));
      }
    }
  }
  return out.slice(0, maxChars);
}

/** What is stored for a log's input or output (null for none): at most `limit` bytes of JSON text. */
export function storedBodyText(value: unknown, limit = logBodyMaxBytes()): string | null {
  if (value === undefined) return null;
  const size = jsonBytesWithin(value, limit);
  if (size <= limit) return JSON.stringify(value);
  // Walked again to the end for the exact size, still without building the whole text.
  const original = jsonBytesWithin(value, Infinity);
  let preview = jsonPrefix(value, Math.max(0, limit - 100));
  for (;;) {
    // A preview never ends in half a surrogate pair, which no text column stores faithfully.
    if (/[\ud800-\udbff]$/.test(preview)) preview = preview.slice(0, -1);
    const text = JSON.stringify({
      truncated: true,
      original_bytes: original,
      limit_bytes: limit,
      preview,
    } satisfies TruncatedBody);
    const over = utf8Bytes(text) - limit;
    if (over <= 0 || preview === "") return text;
    // Each character dropped takes at least one byte with it.
    preview = preview.slice(0, Math.max(0, preview.length - over));
  }
}
