import "server-only";

// Answers of provider read tools, per process, for each tool's cacheTtlSeconds: an identical
// call (same connection, tool and arguments) within that time is answered without reaching
// the provider, and its log says cache_hit. Bounded; the oldest entries go first.

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

export const cacheKey = (connectionId: string, tool: string, args: unknown) => `${connectionId}\u0000${tool}\u0000${JSON.stringify(stable(args))}`;

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

