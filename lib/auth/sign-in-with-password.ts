import "server-only";
import { db } from "@/lib/db/client";
import { verifyPassword } from "@/lib/security/hashing";
import { createRateLimiter } from "@/lib/auth/rate-limit";

// Attempts per 15 minutes: per account (guessing one password) and per client address (trying many accounts).
const WINDOW_MS = 15 * 60 * 1000;
const perAccount = createRateLimiter({ limit: Number(process.env.SIGN_IN_RATE_LIMIT ?? 10), windowMs: WINDOW_MS });
const perIp = createRateLimiter({ limit: Number(process.env.SIGN_IN_IP_RATE_LIMIT ?? 100), windowMs: WINDOW_MS });

export class SignInError extends Error {}

/**
 * Email and password against the stored scrypt hash; attempts are limited per account and per
 * client address. The same message for an unknown email and a wrong password.
 */
export async function signInWithPassword(email: string, password: string, ip: string) {
  const normalized = email.trim().toLowerCase();
  for (const [limiter, key] of [
    [perAccount, normalized],
    [perIp, ip],
  ] as const) {
    const { allowed, retryAfterSeconds } = limiter.hit(key);
    if (!allowed) throw new SignInError(`Too many sign-in attempts. Try again in ${Math.ceil(retryAfterSeconds / 60)} min.`);
  }
  const user = await db.user.findUnique({ where: { email: normalized }, select: { id: true, email: true, name: true, passwordHash: true } });
  // Verify against a dummy hash when the user is unknown, so timing does not reveal which emails exist.
  const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok) throw new SignInError("Wrong email or password.");
  perAccount.reset(normalized);
  return { id: user.id, email: user.email, name: user.name };
}

const DUMMY_HASH = "scrypt$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
