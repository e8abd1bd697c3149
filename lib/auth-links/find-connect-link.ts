import "server-only";
import { db } from "@/lib/db/client";
import { authLinkStatus } from "@/lib/auth-links/auth-link-status";
import { findConnectionType } from "@/lib/providers/registry";

/** Everything the public connect page needs about the link in its URL; null for an unknown token. */
export async function findConnectLink(token: string) {
  if (!/^[0-9A-Za-z]{32}$/.test(token)) return null;
  const link = await db.authLink.findUnique({
    where: { token },
    include: { team: { select: { name: true } }, connection: { select: { displayName: true } } },
  });
  if (!link) return null;
  return { link, status: authLinkStatus(link), def: findConnectionType(link.connectionType) ?? null };
}
