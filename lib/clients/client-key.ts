// A client's segment in the dashboard's URLs. Any non-empty string can be an external_id, so the
// No client group needs a segment no external_id maps to: "~none" is it, and an external_id that
// itself starts with "~" gets one more in front ("~none" → "~~none"), which decoding takes off.

const NO_CLIENT = "~none";

/** The URL segment (before percent-encoding) of a client; null: the No client group. */
export function clientKey(externalId: string | null): string {
  if (externalId === null) return NO_CLIENT;
  return externalId.startsWith("~") ? `~${externalId}` : externalId;
}

/** The external_id a segment names (null: the No client group). */
export function externalIdOfKey(key: string): string | null {
  if (key === NO_CLIENT) return null;
  return key.startsWith("~~") ? key.slice(1) : key;
}
