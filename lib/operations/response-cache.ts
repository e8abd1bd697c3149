import "server-only";

// Answers of read operations, per process, for each operation's cacheTtlSeconds: an identical
// run (same connection, operation and input) within that time is answered without reaching
// the provider, and its log says cache_hit. Keys carry the connection's readsVersion, which a
// write bumps in the database: every process then misses its stale entries. Bounded; the
// oldest entries go first.

const MAX_ENTRIES = 1000;
const entries = new Map<string, { value: unknown; expiresAt: number }>();

/** Object keys sorted at every level, so {a, b} and {b, a} are the same call. */
function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, stable((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

export const cacheKey = (connectionId: string, readsVersion: number, operationId: string, input: unknown) =>
  `${connectionId}\u0000${readsVersion}\u0000${operationId}\u0000${JSON.stringify(stable(input))}`;

export function cached(key: string, now = Date.now()): { value: unknown } | null {
  const hit = entries.get(key);
  if (!hit) return null;
  if (hit.expiresAt <= now) {
    entries.delete(key);
    return null;
  }
  return { value: hit.value };
}

export function remember(key: string, value: unknown, ttlSeconds: number, now = Date.now()) {
  if (ttlSeconds <= 0) return;
  entries.delete(key);
  entries.set(key, { value, expiresAt: now + ttlSeconds * 1000 });
  while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
}
