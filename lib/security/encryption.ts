import "server-only";
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { secrets } from "@/lib/config/env";

// Credentials at rest: AES-256-GCM envelopes "v1.<key id>.<iv>.<tag>.<ciphertext>". The key
// id lets ENCRYPTION_KEY rotate: the old key moves to ENCRYPTION_KEYS_PREVIOUS (comma
// separated) and stays able to decrypt what it wrote.

type Key = { id: string; bytes: Buffer };

function parseKey(raw: string): Key {
  const trimmed = raw.trim();
  let bytes: Buffer;
  if (/^[0-9a-f]{64}$/i.test(trimmed)) bytes = Buffer.from(trimmed, "hex");
  else {
    bytes = Buffer.from(trimmed, "base64");
    // Any other string of some length is accepted and stretched, so a passphrase also works.
    if (bytes.length !== 32) bytes = createHash("sha256").update(trimmed).digest();
  }
  return { id: createHash("sha256").update(bytes).digest("hex").slice(0, 8), bytes };
}

let keys: { current: Key; all: Map<string, Key> } | undefined;
function keyring() {
  if (keys) return keys;
  const current = parseKey(secrets().encryptionKey);
  const all = new Map([[current.id, current]]);
  for (const raw of (process.env.ENCRYPTION_KEYS_PREVIOUS ?? "").split(",").filter(Boolean)) {
    const k = parseKey(raw);
    all.set(k.id, k);
  }
  return (keys = { current, all });
}

export function encryptJson(value: unknown): string {
  const { current } = keyring();
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", current.bytes, iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  return ["v1", current.id, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), data.toString("base64url")].join(".");
}

export function decryptJson<T = unknown>(envelope: string): T {
  const [version, keyId, iv, tag, data] = envelope.split(".");
  if (version !== "v1") throw new Error("unknown credentials envelope version");
  const key = keyring().all.get(keyId);
  if (!key) throw new Error(`credentials were encrypted with key ${keyId}, which is not configured`);
  const decipher = createDecipheriv("aes-256-gcm", key.bytes, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  const plain = Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]);
  return JSON.parse(plain.toString("utf8")) as T;
}
