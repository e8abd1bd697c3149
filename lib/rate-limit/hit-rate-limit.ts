import "server-only";
import { hash } from "node:crypto";
import { ApiError } from "@/lib/errors/api-error";
import type { RateLimitRule } from "@/lib/rate-limit/limits";
import { rateLimitStore } from "@/lib/rate-limit/rate-limit-store";

export type RateLimitResult = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends (at least 1 while limited). */
  resetSeconds: number;
  /** `RateLimit-*` headers for the response. */
  headers: Record<string, string>;
};

// Subjects are hashed: an email or an address is personal data that has no business sitting
// readable in Redis, and a subject sent by the client stays small whatever its length.
const keyFor = (rule: RateLimitRule, subject: string) => `${rule.name}:${hash("sha256", subject, "hex").slice(0, 32)}`;

/** Counts one hit of `subject` (a key id, a user id, an email …) against `rule`. */
export async function hitRateLimit(rule: RateLimitRule, subject: string): Promise<RateLimitResult> {
  if (rule.limit === 0) return { allowed: true, limit: 0, remaining: 0, resetSeconds: 0, headers: {} };
  const { count, resetAt } = await rateLimitStore().hit(keyFor(rule, subject), rule.windowMs);
  const resetSeconds = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
  const remaining = Math.max(0, rule.limit - count);
  return {
    allowed: count <= rule.limit,
    limit: rule.limit,
    remaining,
    resetSeconds,
    headers: {
      "RateLimit-Limit": String(rule.limit),
      "RateLimit-Remaining": String(remaining),
      "RateLimit-Reset": String(resetSeconds),
      "RateLimit-Policy": `${rule.limit};w=${Math.round(rule.windowMs / 1000)}`,
    },
  };
}

/** Subjects this process saw over a limit, until their window ends (key → ms). */
const limitedUntil = new Map<string, number>();
const MAX_LIMITED = 10_000;

/**
 * Whether this process's last count for `subject` was over `rule`'s limit in a window that has
 * not ended: work a request would start before its count is in is better not started.
 */
export function seenLimited(rule: RateLimitRule, subject: string): boolean {
  if (rule.limit === 0 || limitedUntil.size === 0) return false;
  const key = keyFor(rule, subject);
  const until = limitedUntil.get(key);
  if (until === undefined) return false;
  if (Date.now() < until) return true;
  limitedUntil.delete(key);
  return false;
}

/**
 * Counts one request; over the limit it throws a 429 whose `detail` names the limit, its size
 * and when to retry, with `Retry-After`. Returns the `RateLimit-*` headers for the response.
 */
export async function enforceRateLimit(rule: RateLimitRule, subject: string): Promise<Record<string, string>> {
  const result = await hitRateLimit(rule, subject);
  if (result.allowed) return result.headers;
  const now = Date.now();
  if (limitedUntil.size >= MAX_LIMITED) for (const [k, until] of limitedUntil) if (now >= until) limitedUntil.delete(k);
  if (limitedUntil.size < MAX_LIMITED) limitedUntil.set(keyFor(rule, subject), now + result.resetSeconds * 1000);
  const window =
    rule.windowMs === 60_000
      ? "minute"
      : rule.windowMs % 60_000 === 0
        ? `${rule.windowMs / 60_000} min`
        : `${rule.windowMs / 1000} s`;
  throw new ApiError(
    429,
    `Rate limit exceeded: at most ${rule.limit} requests per ${window} per ${rule.per}. Try again in ${result.resetSeconds} s.`,
    {
      ...result.headers,
      "Retry-After": String(result.resetSeconds),
    },
  );
}
