export const AUTH_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** Spec §3.1: connected once a connection came from it; expired after 24 h unused; else pending. */
export function authLinkStatus(link: { connectionId: string | null; consumedAt: Date | null; expiresAt: Date }, now = new Date()) {
  if (link.connectionId || link.consumedAt) return "connected" as const;
  return link.expiresAt <= now ? ("expired" as const) : ("pending" as const);
}
