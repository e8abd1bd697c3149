import "server-only";
import { db } from "@/lib/db/client";
import { authLinkStatus } from "@/lib/auth-links/auth-link-status";
import { authLinkUrl } from "@/lib/auth-links/create-auth-link";

export const RECENT_AUTH_LINKS = 50;

/**
 * The team's most recent auth links, newest first, with everything needed to share a pending
 * one again or to regenerate an expired one with the same settings. The url is only given
 * while the link can still be used.
 */
export async function listAuthLinks(teamId: string, limit = RECENT_AUTH_LINKS) {
  const links = await db.authLink.findMany({
    where: { teamId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
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
      url: status === "pending" ? authLinkUrl(link.token) : null,
      expires_at: link.expiresAt.getTime(),
      created_at: link.createdAt.getTime(),
    };
  });
}
