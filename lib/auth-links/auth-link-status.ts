export const AUTH_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;

type Instant = Date | number; // a Date, or milliseconds since the epoch

/** Spec §3.1: connected once a connection came from it; expired after 24 h unused; else pending. */
export function authLinkStatus(link: { connectionId: string | null; consumedAt: Instant | null; expiresAt: Instant }, now: Instant = Date.now()) {
  if (link.connectionId || link.consumedAt !== null) return "connected" as const;
  return Number(link.expiresAt) <= Number(now) ? ("expired" as const) : ("pending" as const);
}
