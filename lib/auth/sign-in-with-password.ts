import "server-only";
import { db } from "@/lib/db/client";
import { verifyPassword } from "@/lib/security/hashing";
import { hitRateLimit } from "@/lib/rate-limit/hit-rate-limit";
import { rateLimits } from "@/lib/rate-limit/limits";
import { rateLimitStore } from "@/lib/rate-limit/rate-limit-store";
import { hash } from "node:crypto";

export class SignInError extends Error {}

/** The longest a client waits between attempts at one account, however many it got wrong. */
const MAX_DELAY_MS = 15 * 60 * 1000;

/** A client whose address is unknown (no server in front of this code) still gets a bucket of its own kind. */
const UNKNOWN_ADDRESS = "unknown";

/** How long one account's failures from one address are remembered (a right password forgets them). */
const FAILURE_MEMORY_MS = 24 * 60 * 60 * 1000;

// Subjects are hashed, as for every rate limit: an email and an address have no business
// sitting readable in Redis.
const keyOf = (kind: string, pair: string) => `sign-in-${kind}:${hash("sha256", pair, "hex").slice(0, 32)}`;

/**
 * Email and password against the stored scrypt hash. Guessing is slowed per account *and*
 * client address: after SIGN_IN_RATE_LIMIT wrong passwords for one account from one address,
 * each further attempt from that address must wait 1 s, then 2, 4, … up to 15 min, and a right
 * password clears it. Attempts from any other address, the account's real owner's, are not
 * held up, so nobody can lock someone else out. One address is also held to
 * SIGN_IN_IP_RATE_LIMIT attempts per 15 min across all accounts (trying many accounts; and the
 * bound on a burst of parallel guesses). Counters live in the shared rate-limit store, so every
 * instance counts the same attempts. The same message for an unknown email and a wrong password.
 */
export async function signInWithPassword(email: string, password: string, ip: string | null) {
  const normalized = email.trim().toLowerCase();
  const address = ip ?? UNKNOWN_ADDRESS;
  const pair = `${normalized}\n${address}`;
  const { signInAccount, signInIp } = rateLimits();
  const store = rateLimitStore();

  const wait = signInAccount.limit ? await store.peek(keyOf("wait", pair)) : null;
  if (wait) throw tooMany(wait.resetAt - Date.now());
  const perAddress = await hitRateLimit(signInIp, address);
  if (!perAddress.allowed) throw tooMany(perAddress.resetSeconds * 1000);

  const user = await db.user.findUnique({
    where: { email: normalized },
    select: { id: true, email: true, name: true, passwordHash: true, passwordFromInvite: true },
  });
  // Verify against a dummy hash when the user is unknown, so timing does not reveal which emails exist.
  const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok) {
    if (signInAccount.limit) {
      const { count } = await store.hit(keyOf("failures", pair), FAILURE_MEMORY_MS);
      // The limit-th failure starts the delays: 1 s before the next attempt, then twice as long each time.
      if (count >= signInAccount.limit)
        await store.hit(keyOf("wait", pair), Math.min(1000 * 2 ** (count - signInAccount.limit), MAX_DELAY_MS));
    }
    throw new SignInError("Wrong email or password.");
  }
  await store.reset(keyOf("failures", pair));
  await store.reset(keyOf("wait", pair));
  // The password proved itself once: single sign-on may now link to this account (auth-options.ts).
  if (user.passwordFromInvite) await db.user.update({ where: { id: user.id }, data: { passwordFromInvite: false } });
  return { id: user.id, email: user.email, name: user.name };
}

function tooMany(ms: number) {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return new SignInError(
    `Too many sign-in attempts. Try again in ${seconds < 90 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`}.`,
  );
}

const DUMMY_HASH = "scrypt$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
