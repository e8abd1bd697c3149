import { createHmac, hash, randomBytes, scrypt as scryptCb, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;

/** Tokens (API keys, MCP tokens) are high-entropy, so a fast hash is enough to store them. */
export function sha256Hex(value: string): string {
  return hash("sha256", value, "hex");
}

export function hmac(secret: string, value: string): Buffer {
  return createHmac("sha256", secret).update(value).digest();
}

export function safeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** Passwords: scrypt with a per-user salt, "scrypt$<salt>$<hash>". */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32, SCRYPT);
  return `scrypt$${salt.toString("base64url")}$${hash.toString("base64url")}`;
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const [scheme, salt, hash] = (stored ?? "").split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const actual = await scrypt(password, Buffer.from(salt, "base64url"), 32, SCRYPT);
  return safeEqual(actual, Buffer.from(hash, "base64url"));
}
