/**
 * The instant a log id carries (lib/security/ids.ts newOrderedId: `log_` and 9 base-36 digits of
 * milliseconds): a log's started_at, or for a workflow step the moment it was planned, which is
 * within moments of it. Null for an id made before logs carried their time (20 random
 * characters), which a lookup then finds without the partition hint.
 */
export function logIdSeconds(id: string): number | null {
  const m = /^log_([0-9a-z]{9})[0-9a-z]{15}$/.exec(id);
  if (!m) return null;
  const ms = parseInt(m[1], 36);
  return Number.isSafeInteger(ms) ? Math.floor(ms / 1000) : null;
}
