import { type z } from "zod";
import { ApiError, badRequest, describeZodError } from "@/lib/errors/api-error";

export const MAX_BODY_BYTES = 1024 * 1024;

/** Query parameters as a plain object; a repeated parameter is an error, not a silent pick. */
export function parseQuery<S extends z.ZodType>(schema: S, searchParams: URLSearchParams): z.infer<S> {
  const raw: Record<string, string> = {};
  for (const key of new Set(searchParams.keys())) {
    const values = searchParams.getAll(key);
    if (values.length > 1) throw badRequest(`${key}: given ${values.length} times; pass it once`);
    raw[key] = values[0];
    if (key.includes("\0") || values[0].includes("\0"))
      throw badRequest(`${key.replace(/\0/g, "\\0")}: must not contain NUL characters`);
  }
  const result = schema.safeParse(raw);
  if (!result.success) throw badRequest(describeZodError(result.error));
  return result.data;
}

export async function parseJsonBody<S extends z.ZodType>(schema: S, req: Request): Promise<z.infer<S>> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0];
  const declared = Number(req.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES)
    throw await tooLarge(req.body?.getReader(), 0, `Body is ${declared} bytes; the limit is ${MAX_BODY_BYTES}.`);
  const text = await readLimited(req);
  if (!text.trim()) throw badRequest("Body is empty; send a JSON object.");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // Lenient about the declared type (fetch sends text/plain by default), strict about the content.
    const hint = type && !/json/i.test(type) ? ` (it was sent as ${type}; send application/json)` : "";
    throw badRequest(`Body is not valid JSON${hint}: ${withoutExcerpt((e as Error).message)}`);
  }
  const nul = findNul(value);
  if (nul !== null)
    throw badRequest(
      `${nul || "body"}: must not contain NUL characters or unpaired surrogates (\\ud800–\\udfff alone)`,
    );
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(describeZodError(result.error));
  return result.data;
}

const MAX_JSON_DEPTH = 32;

/** U+0000, or half of a surrogate pair (JSON's "\ud800" escape): no text column stores either faithfully. */
export const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Path of the first string (or key) holding U+0000 or a lone surrogate, which no text column
 * can store; null if none. Iterative, and it refuses nesting deeper than MAX_JSON_DEPTH, so a hostile body cannot
 * exhaust the stack here or in the schema validation after it.
 */
export function findNul(root: unknown): string | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: "", depth: 0 }];
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === "string") {
      if (UNSTORABLE.test(value)) return path;
      continue;
    }
    if (!value || typeof value !== "object") continue;
    if (depth >= MAX_JSON_DEPTH) throw badRequest(`${path || "body"}: nested more than ${MAX_JSON_DEPTH} levels deep`);
    for (const [k, v] of Object.entries(value)) {
      const here = path ? `${path}.${k}` : k;
      if (UNSTORABLE.test(k)) return here;
      stack.push({ value: v, path: here, depth: depth + 1 });
    }
  }
  return null;
}

/**
 * How much of an oversized body is read and dropped before the 413 is sent. A client is usually
 * still sending when the answer comes; if the server closed the connection on unread data, the
 * client's kernel would get a reset and could drop the 413 before the client read it. Past these
 * bounds (a huge or a stalled upload) the connection is closed instead, unread.
 */
const DRAIN_BYTES = 16 * 1024 * 1024;
const DRAIN_MS = 5_000;

/** The 413, after draining what is left of the body within the bounds above (`connection: close` when it could not). */
async function tooLarge(
  reader: ReadableStreamDefaultReader<Uint8Array> | undefined,
  alreadyRead: number,
  detail: string,
): Promise<ApiError> {
  const drained = reader ? await drain(reader, alreadyRead) : true;
  return new ApiError(413, detail, drained ? {} : { connection: "close" });
}

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, alreadyRead: number): Promise<boolean> {
  let size = alreadyRead;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(resolve, DRAIN_MS, "late")));
  try {
    while (size <= DRAIN_BYTES) {
      const next = await Promise.race([reader.read(), late]);
      if (next === "late") break;
      if (next.done) return true;
      size += next.value.byteLength;
    }
  } catch {
    // The client went away: nothing left to protect.
  } finally {
    clearTimeout(timer);
  }
  await reader.cancel().catch(() => {});
  return false;
}

async function readLimited(req: Request, limit = MAX_BODY_BYTES): Promise<string> {
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) throw await tooLarge(reader, size, `Body is larger than the limit of ${limit} bytes.`);
    chunks.push(value);
  }
  return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
}

/**
 * The body as text, at most `limit` bytes (a declared or actual larger one is a 413 ApiError):
 * for routes outside /v1 that take forms (the connect page, the sandbox provider, sign-in).
 */
export async function readBoundedText(req: Request, limit = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? 0);
  if (declared > limit) {
    const detail = `Body is ${declared} bytes; the limit is ${limit}.`;
    // Far past what is worth draining: answered at once, and the connection closed.
    if (declared > DRAIN_BYTES) throw new ApiError(413, detail, { connection: "close" });
    throw await tooLarge(req.body?.getReader(), 0, detail);
  }
  return readLimited(req, limit);
}

/** A URL-encoded form body, at most `limit` bytes. */
export const readBoundedForm = async (req: Request, limit = MAX_BODY_BYTES) =>
  new URLSearchParams(await readBoundedText(req, limit));

/**
 * V8 quotes the body around the error (`Unexpected token 'x', "{"api_key": sk-…" is not valid
 * JSON`), which would send a credential back in the 400 and into any log of it; the position
 * says where the problem is without the text.
 */
function withoutExcerpt(message: string): string {
  return message.replace(/,\s*(?:\.\.\.)?".*" is not valid JSON$/s, "");
}
