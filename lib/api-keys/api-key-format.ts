import { randomToken } from "@/lib/security/ids";

/** API keys: "pbk_" and 40 base62 characters (~238 bits). The first 12 characters are shown as the key's prefix. */
export const API_KEY_PATTERN = /^pbk_[0-9A-Za-z]{40}$/;

export function generateApiKey(): { key: string; prefix: string } {
  const key = `pbk_${randomToken(40)}`;
  return { key, prefix: key.slice(0, 12) };
}
