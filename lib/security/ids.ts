import { randomFillSync } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

// Random bytes are drawn from the CSPRNG 4 KB at a time and each byte is used once: a request
// id or a new row's id then costs no system call of its own (as Node's randomUUID() does).
const pool = Buffer.alloc(4096);
let next = pool.length;

function randomByte(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++];
}

/** Random base62 string (rejection sampling keeps every character equally likely). */
export function randomToken(length: number): string {
  let out = "";
  while (out.length < length) {
    const b = randomByte();
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out;
}

/** Public ids: a readable prefix and 20 random base62 characters (~119 bits). */
export function newId(
  prefix:
    | "team"
    | "user"
    | "key"
    | "conn"
    | "al"
    | "oa"
    | "wf"
    | "mcp"
    | "log"
    | "run"
    | "conv"
    | "inv"
    | "mcpt"
    | "aud"
    | "we"
    | "msg"
    | "whd"
    | "wha"
    | "apr"
    | "ocl"
    | "ogr",
): string {
  return `${prefix}_${randomToken(20)}`;
}

let lastMs = 0;
let sequence = 0;
/**
 * An id that sorts (as text, lower-case only, so every collation agrees) in the order this
 * process made them, then 12 random characters: a workflow run's node logs, whose started_at
 * (seconds) often tie, list in node order by (started_at, id). `atMs` (default now) is the instant
 * the id carries: a log's id carries its started_at, so a lookup by id finds its time partition
 * (lib/logs/log-id-time.ts).
 */
export function newOrderedId(prefix: "log", atMs = Date.now()): string {
  const now = atMs;
  sequence = now === lastMs ? sequence + 1 : 0;
  lastMs = now;
  return `${prefix}_${now.toString(36).padStart(9, "0")}${sequence.toString(36).padStart(3, "0")}${randomToken(12).toLowerCase()}`;
}
