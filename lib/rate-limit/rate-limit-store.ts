import "server-only";
import { createRedisStore } from "@/lib/rate-limit/redis-store";
import type { RateLimitStore, WindowCount } from "@/lib/rate-limit/store-types";

const MAX_KEYS = 10_000;

/** Counters in this process: right for a single instance, and the fallback when Redis is down. */
function createMemoryStore(): RateLimitStore {
  const windows = new Map<string, WindowCount>();
  return {
    async hit(key, windowMs) {
      const now = Date.now();
      let w = windows.get(key);
      if (!w || now >= w.resetAt) {
        w = { count: 0, resetAt: now + windowMs };
        windows.set(key, w);
        // Bounded memory: expired windows go once the map grows (a flood of distinct keys).
        if (windows.size > MAX_KEYS) for (const [k, v] of windows) if (now >= v.resetAt) windows.delete(k);
      }
      w.count++;
      return { count: w.count, resetAt: w.resetAt };
    },
    async peek(key) {
      const w = windows.get(key);
      return w && Date.now() < w.resetAt ? { ...w } : null;
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}

const globalForStore = globalThis as unknown as { __patchbayRateLimitStore?: RateLimitStore };

/** Redis when REDIS_URL is set, so every instance counts against one budget; this process's memory otherwise. */
export function rateLimitStore(): RateLimitStore {
  return (globalForStore.__patchbayRateLimitStore ??= process.env.REDIS_URL
    ? createRedisStore(process.env.REDIS_URL, createMemoryStore())
    : createMemoryStore());
}
