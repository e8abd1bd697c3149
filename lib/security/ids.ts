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
export function newId(prefix: "team" | "user" | "key" | "conn" | "al" | "oa" | "wf" | "mcp" | "log" | "run" | "conv" | "inv" | "mcpt" | "aud" | "we" | "msg" | "whd" | "wha" | "apr"): string {
  return `${prefix}_${randomToken(20)}`;
}
