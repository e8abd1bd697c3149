import "server-only";
import { db } from "@/lib/db/client";
import { verifyPassword } from "@/lib/security/hashing";
import { hitRateLimit, resetRateLimit } from "@/lib/rate-limit/hit-rate-limit";
import { rateLimits } from "@/lib/rate-limit/limits";

export class SignInError extends Error {}

/**
 * Email and password against the stored scrypt hash; attempts are limited per account and per
 * client address (in the shared rate-limit store, so every instance counts the same attempts).
 * The same message for an unknown email and a wrong password.
 */
export async function signInWithPassword(email: string, password: string, ip: string) {
  const normalized = email.trim().toLowerCase();
  const { signInAccount, signInIp } = rateLimits();
  for (const [rule, subject] of [
    [signInAccount, normalized],
    [signInIp, ip],
  ] as const) {
    const { allowed, resetSeconds } = await hitRateLimit(rule, subject);
    if (!allowed) throw new SignInError(`Too many sign-in attempts. Try again in ${Math.ceil(resetSeconds / 60)} min.`);
  }
  const user = await db.user.findUnique({ where: { email: normalized }, select: { id: true, email: true, name: true, passwordHash: true } });
  // Verify against a dummy hash when the user is unknown, so timing does not reveal which emails exist.
  const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok) throw new SignInError("Wrong email or password.");
  await resetRateLimit(signInAccount, normalized);
  return { id: user.id, email: user.email, name: user.name };
}

const DUMMY_HASH = "scrypt$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
