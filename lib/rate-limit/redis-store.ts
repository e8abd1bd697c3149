import "server-only";
import { createClient } from "redis";
import type { RateLimitStore, WindowCount } from "@/lib/rate-limit/store-types";

const PREFIX = "patchbay:rl:";
/** A rate-limit check must never hold a request up for long: a slower Redis counts as down. */
const COMMAND_TIMEOUT_MS = 500;
/** At start-up the first requests wait this long for the connection before counting locally. */
const FIRST_CONNECT_WAIT_MS = 1_000;
const WARN_EVERY_MS = 60_000;

// One round trip, atomic on the server: the first hit of a window sets its expiry, so every
// instance sees the same count and the same reset time.
const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}`;

const PEEK_SCRIPT = `
local n = redis.call('GET', KEYS[1])
if not n then return {0, -2} end
return {tonumber(n), redis.call('PTTL', KEYS[1])}`;

/**
 * Counters in Redis, shared by every instance. When Redis is unreachable or slow the limits
 * fail open to `fallback` (this process's own counters) with a warning in the log: a rate
 * limiter exists to protect the service, and turning every API, MCP and sign-in request into
 * a 5xx because the limiter's store is down would be a worse outage than limits that are
 * briefly per instance. The client reconnects in the background and counting moves back to
 * Redis as soon as it answers.
 */
export function createRedisStore(url: string, fallback: RateLimitStore): RateLimitStore {
  const client = createClient({
    url,
    // Fail at once while disconnected instead of queueing requests behind a dead socket.
    disableOfflineQueue: true,
    commandOptions: { timeout: COMMAND_TIMEOUT_MS },
    socket: { connectTimeout: 2_000, reconnectStrategy: (retries) => Math.min(200 * 2 ** retries, 5_000) },
  });
  let lastWarning = 0;
  const warn = (error: unknown) => {
    if (Date.now() - lastWarning < WARN_EVERY_MS) return;
    lastWarning = Date.now();
    const message = (error as Error)?.message || String(error) || "unreachable";
    console.warn(
      JSON.stringify({
        level: "warn",
        msg: "rate limits: Redis unavailable, counting in this process until it answers",
        error: message,
      }),
    );
  };
  // Without a listener a connection error would crash the process.
  client.on("error", warn);
  let firstAttemptSettled = false;
  const connecting = client.connect().then(
    () => void (firstAttemptSettled = true),
    (error) => void ((firstAttemptSettled = true), warn(error)),
  );
  client.once("error", () => (firstAttemptSettled = true));

  async function usable() {
    if (client.isReady) return true;
    if (!firstAttemptSettled)
      await Promise.race([connecting, new Promise((r) => setTimeout(r, FIRST_CONNECT_WAIT_MS))]);
    return client.isReady;
  }

  return {
    async hit(key, windowMs): Promise<WindowCount> {
      if (await usable()) {
        try {
          const [count, ttl] = (await client.eval(HIT_SCRIPT, {
            keys: [PREFIX + key],
            arguments: [String(windowMs)],
          })) as [number, number];
          return { count: Number(count), resetAt: Date.now() + Number(ttl) };
        } catch (error) {
          warn(error);
        }
      } else {
        warn(new Error("not connected"));
      }
      return fallback.hit(key, windowMs);
    },
    async peek(key): Promise<WindowCount | null> {
      if (await usable()) {
        try {
          const [count, ttl] = (await client.eval(PEEK_SCRIPT, { keys: [PREFIX + key] })) as [number, number];
          return Number(ttl) > 0 ? { count: Number(count), resetAt: Date.now() + Number(ttl) } : null;
        } catch (error) {
          warn(error);
        }
      }
      return fallback.peek(key);
    },
    async reset(key) {
      await fallback.reset(key);
      if (!client.isReady) return;
      await client.del(PREFIX + key).catch(warn);
    },
  };
}
