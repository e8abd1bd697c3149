import "server-only";
import { db } from "@/lib/db/client";

/** Why a single sign-on was refused: a sign-in page error code (components/auth/sign-in-form.tsx). */
export type SsoRefusal = "NoEmail" | "EmailNotVerified" | "NotAMember" | "InvitePasswordUnproven";

/**
 * The user a single sign-on identity signs in as. An identity linked before signs in as its
 * user, whatever its email says now. A new one is matched by email only when the identity
 * provider vouches for the address (`email_verified`), and never to an account whose password
 * came from an invite link until that password has signed in once: whoever held the link chose
 * it, and nothing proved they own the address. The link is then stored, so later sign-ins
 * match the subject, not the email.
 */
export async function resolveSsoUser(
  provider: string,
  subject: string,
  claims: Record<string, unknown> | undefined,
): Promise<{ userId: string } | { refused: SsoRefusal }> {
  const linked = await db.ssoIdentity.findUnique({
    where: { provider_subject: { provider, subject } },
    select: { userId: true },
  });
  if (linked) return linked;
  const email = typeof claims?.email === "string" ? claims.email.trim().toLowerCase() : "";
  if (!email) return { refused: "NoEmail" };
  // OIDC's email_verified is a boolean; some providers send the string "true".
  if (claims?.email_verified !== true && claims?.email_verified !== "true") return { refused: "EmailNotVerified" };
  const user = await db.user.findUnique({
    where: { email },
    select: { id: true, passwordFromInvite: true, memberships: { select: { teamId: true }, take: 1 } },
  });
  if (!user || !user.memberships.length) return { refused: "NotAMember" };
  if (user.passwordFromInvite) return { refused: "InvitePasswordUnproven" };
  await db.ssoIdentity.upsert({
    where: { provider_subject: { provider, subject } },
    create: { provider, subject, userId: user.id },
    update: {},
  });
  return { userId: user.id };
}
