/** How many hits a key has in its current window, and when that window ends. */
export type WindowCount = { count: number; resetAt: number };

/**
 * Fixed-window counters. A key's window starts at its first hit and lasts `windowMs`; every
 * hit inside it counts, and the next hit after it starts a new window at 1.
 */
export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<WindowCount>;
  /** The key's current window without counting a hit; null when it has none. */
  peek(key: string): Promise<WindowCount | null>;
  reset(key: string): Promise<void>;
}
