/**
 * A fixed-window counter per key, in this process (issue 6 moves it to Redis when REDIS_URL is
 * set). `hit` counts an attempt and says whether it is allowed and when the window frees up.
 */
export function createRateLimiter(options: { limit: number; windowMs: number }) {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    hit(key: string, now = Date.now()) {
      let w = windows.get(key);
      if (!w || now - w.start >= options.windowMs) {
        w = { start: now, count: 0 };
        windows.set(key, w);
        if (windows.size > 10_000) for (const [k, v] of windows) if (now - v.start >= options.windowMs) windows.delete(k);
      }
      w.count++;
      return { allowed: w.count <= options.limit, retryAfterSeconds: Math.ceil((w.start + options.windowMs - now) / 1000) };
    },
    reset(key: string) {
      windows.delete(key);
    },
  };
}
