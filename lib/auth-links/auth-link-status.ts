import type { ConnectionJson } from "@/lib/schemas/connections";

export const AUTH_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;

type Instant = Date | number; // a Date, or milliseconds since the epoch

/** Spec §3.1: connected once a connection came from it; expired after 24 h unused; else pending. */
export function authLinkStatus(
  link: { connectionId: string | null; consumedAt: Instant | null; expiresAt: Instant },
  now: Instant = Date.now(),
) {
  if (link.connectionId || link.consumedAt !== null) return "connected" as const;
  return Number(link.expiresAt) <= Number(now) ? ("expired" as const) : ("pending" as const);
}

type LinkTimes = {
  id: string;
  connectionType: string;
  connectionId: string | null;
  externalId: string | null;
  expiresAt: Instant;
  consumedAt: Instant | null;
  createdAt: Instant;
  updatedAt: Instant;
};

/** Spec §2.3 AuthLinkStatus (milliseconds), with the connections the reader may see. */
export function authLinkStatusJson(link: LinkTimes, connections: ConnectionJson[]) {
  const consumedAt = link.consumedAt === null ? null : Number(link.consumedAt);
  const expiresAt = Number(link.expiresAt);
  return {
    id: link.id,
    status: authLinkStatus({ connectionId: link.connectionId, consumedAt, expiresAt }),
    connection_type: link.connectionType,
    connection_id: link.connectionId,
    external_id: link.externalId,
    expires_at: expiresAt,
    consumed_at: consumedAt,
    created_at: Number(link.createdAt),
    updated_at: Number(link.updatedAt),
    connections,
  };
}
