import "server-only";
import { createCipheriv, createDecipheriv, createHash, randomBytes, scryptSync } from "node:crypto";
import { secrets } from "@/lib/config/env";

// Secrets at rest (connection credentials, webhook signing secrets, auth-link tokens):
// AES-256-GCM envelopes "v2.<key id>.<iv>.<tag>.<ciphertext>".
// - Each envelope is bound to its row: the row's identity ("connection:conn_…") is the GCM
//   additional data, so an envelope copied into another row does not open there.
// - The tag is always 16 bytes, checked before decrypting: GCM accepts tags as short as 4
//   bytes unless told otherwise, and a short tag is a forgeable one.
// - The key id lets ENCRYPTION_KEY rotate: the old key moves to ENCRYPTION_KEYS_PREVIOUS (comma
//   separated) and stays able to decrypt what it wrote.
// - A key that is not 32 bytes (base64 or hex) is a passphrase, stretched with scrypt.
// "v1" envelopes (no additional data) written before all this still open, and `npm start`
// re-seals them (lib/db/reseal-legacy-envelopes.ts).

type Key = { id: string; bytes: Buffer };

const TAG_BYTES = 16;
const IV_BYTES = 12;
// A fixed salt: the derived key must be the same on every instance and every start, and a
// per-deployment salt would be one more secret to carry. scrypt's cost is what slows guessing.
const PASSPHRASE_SALT = "patchbay/encryption-key/v2";
const PASSPHRASE_COST = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

const keyOf = (bytes: Buffer): Key => ({ id: createHash("sha256").update(bytes).digest("hex").slice(0, 8), bytes });

/** How releases before v2 read a key: 32 bytes as given, anything else one SHA-256 of the text. */
function legacyBytes(trimmed: string): Buffer {
  if (/^[0-9a-f]{64}$/i.test(trimmed)) return Buffer.from(trimmed, "hex");
  const decoded = Buffer.from(trimmed, "base64");
  return decoded.length === 32 ? decoded : createHash("sha256").update(trimmed).digest();
}

/** The configured key, plus (for a passphrase) the key older releases derived from it, which may only decrypt. */
function parseKey(raw: string): { key: Key; legacy?: Key } {
  const trimmed = raw.trim();
  if (/^[0-9a-f]{64}$/i.test(trimmed) || /^[A-Za-z0-9+/]{43}=$|^[A-Za-z0-9_-]{43}$/.test(trimmed))
    return { key: keyOf(legacyBytes(trimmed)) };
  return { key: keyOf(scryptSync(trimmed, PASSPHRASE_SALT, 32, PASSPHRASE_COST)), legacy: keyOf(legacyBytes(trimmed)) };
}

type Keyring = { current: Key; all: Map<string, Key> };
let keys: Keyring | undefined;

function keyring(): Keyring {
  if (keys) return keys;
  const { key: current, legacy } = parseKey(secrets().encryptionKey);
  const all = new Map<string, Key>([[current.id, current]]);
  const add = (k?: Key) => k && !all.has(k.id) && all.set(k.id, k);
  add(legacy);
  for (const raw of (process.env.ENCRYPTION_KEYS_PREVIOUS ?? "").split(",").filter((s) => s.trim())) {
    const parsed = parseKey(raw);
    add(parsed.key);
    add(parsed.legacy);
  }
  return (keys = { current, all });
}

/** The additional data that binds an envelope to one row of one table. */
export type SealedFor = `${"connection" | "webhook_endpoint" | "auth_link"}:${string}`;

export class UnreadableEnvelope extends Error {}

export function encryptJson(value: unknown, boundTo: SealedFor): string {
  const { current } = keyring();
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", current.bytes, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(boundTo, "utf8"));
  const data = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  return [
    "v2",
    current.id,
    iv.toString("base64url"),
    cipher.getAuthTag().toString("base64url"),
    data.toString("base64url"),
  ].join(".");
}

/**
 * Opens an envelope written for `boundTo`; throws UnreadableEnvelope when it was written for
 * another row, with a key that is not configured, or was altered in any way.
 */
export function decryptJson<T = unknown>(envelope: string, boundTo: SealedFor): T {
  const [version, keyId, iv, tag, data, ...rest] = envelope.split(".");
  if ((version !== "v1" && version !== "v2") || rest.length || data === undefined)
    throw new UnreadableEnvelope("not a credentials envelope");
  const key = keyring().all.get(keyId);
  if (!key)
    throw new UnreadableEnvelope(
      `encrypted with key ${keyId}, which is not configured (ENCRYPTION_KEY / ENCRYPTION_KEYS_PREVIOUS)`,
    );
  const ivBytes = Buffer.from(iv, "base64url");
  const tagBytes = Buffer.from(tag, "base64url");
  if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES)
    throw new UnreadableEnvelope("malformed envelope (IV or tag length)");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.bytes, ivBytes, { authTagLength: TAG_BYTES });
    if (version === "v2") decipher.setAAD(Buffer.from(boundTo, "utf8"));
    decipher.setAuthTag(tagBytes);
    const plain = Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]);
    return JSON.parse(plain.toString("utf8")) as T;
  } catch {
    throw new UnreadableEnvelope("the envelope does not open for this row (altered, or moved from another row)");
  }
}

/**
 * How every envelope sealed now begins: one that does not is legacy ("v1") or under an older key,
 * and is re-sealed at start.
 */
export const currentEnvelopePrefix = () => `v2.${keyring().current.id}.`;
