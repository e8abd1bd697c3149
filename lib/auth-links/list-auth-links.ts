import "server-only";
import { db } from "@/lib/db/client";
import { authLinkStatus } from "@/lib/auth-links/auth-link-status";
import { authLinkUrl } from "@/lib/auth-links/create-auth-link";
import { linkTokenOf } from "@/lib/auth-links/link-token";

const urlOf = (link: { id: string; tokenSealed: string | null }) => {
  const token = linkTokenOf(link);
  return token ? authLinkUrl(token) : null;
};

const RECENT_AUTH_LINKS = 50;

/**
 * The latest press of Continue on the link, as the dashboard shows it (milliseconds, like the rest
 * of this list): when it started, when the provider's answer came back, and how it ended
 * (`connected`, or the error redirect's code and description); null before anyone pressed it.
 * Only the webhook said so before (auth_link.failed); the spec's status endpoint keeps its fields.
 */
function lastAttemptJson(
  attempt: { createdAt: Date; usedAt: Date | null; outcome: string | null; outcomeDetail: string | null } | undefined,
) {
  if (!attempt) return null;
  return {
    started_at: attempt.createdAt.getTime(),
    answered_at: attempt.usedAt?.getTime() ?? null,
    outcome: attempt.outcome,
    detail: attempt.outcomeDetail,
  };
}

/**
 * The team's most recent auth links that `viewerUserId` may see, newest first, with everything
 * needed to share a pending one again or to regenerate an expired one with the same settings.
 * A private link is its creator's alone (its connection will be theirs): nobody else sees it,
 * its URL or its redirect_url. The url is only given while the link can still be used (and not
 * for links made before tokens were sealed, which cannot be shown again). Each carries its last attempt.
 */
export async function listAuthLinks(teamId: string, viewerUserId: string, limit = RECENT_AUTH_LINKS) {
  const links = await db.authLink.findMany({
    where: { teamId, OR: [{ isPrivate: false }, { createdByUserId: viewerUserId }] },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    include: {
      attempts: {
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: 1,
        select: { createdAt: true, usedAt: true, outcome: true, outcomeDetail: true },
      },
    },
  });
  const now = new Date();
  return links.map((link) => {
    const status = authLinkStatus(link, now);
    return {
      id: link.id,
      status,
      connection_type: link.connectionType,
      external_id: link.externalId,
      redirect_url: link.redirectUrl,
      is_private: link.isPrivate,
      connection_id: link.connectionId,
      url: status === "pending" ? urlOf(link) : null,
      expires_at: link.expiresAt.getTime(),
      created_at: link.createdAt.getTime(),
      last_attempt: lastAttemptJson(link.attempts[0]),
    };
  });
}
