import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** Random base62 string (rejection sampling keeps every character equally likely). */
export function randomToken(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += ALPHABET[b % 62];
    }
  }
  return out;
}

/** Public ids: a readable prefix and 20 random base62 characters (~119 bits). */
export function newId(prefix: "team" | "user" | "key" | "conn" | "al" | "oa" | "wf" | "mcp" | "log" | "run" | "conv" | "inv" | "mcpt" | "aud"): string {
  return `${prefix}_${randomToken(20)}`;
}
