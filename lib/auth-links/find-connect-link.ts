import "server-only";
import { db } from "@/lib/db/client";
import { authLinkStatus } from "@/lib/auth-links/auth-link-status";
import { findConnectionType } from "@/lib/platforms/registry";
import { linkTokenHash } from "@/lib/auth-links/link-token";

/** Everything the public connect page needs about the link in its URL; null for an unknown token. */
export async function findConnectLink(token: string) {
  const tokenHash = linkTokenHash(token);
  if (!tokenHash) return null;
  const link = await db.authLink.findUnique({
    where: { tokenHash },
    include: { team: { select: { name: true } }, connection: { select: { displayName: true } } },
  });
  if (!link) return null;
  return { link, status: authLinkStatus(link), def: findConnectionType(link.connectionType) ?? null };
}
