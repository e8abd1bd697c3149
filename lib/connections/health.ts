import "server-only";
import { db } from "@/lib/db/client";
import { transaction } from "@/lib/db/transaction";
import { ApiError, notFound } from "@/lib/errors/api-error";
import { connectionCheckIntervalMs } from "@/lib/config/limits";
import { oauthRedirectUri } from "@/lib/config/env";
import { redactString } from "@/lib/observability/redact";
import { connectionPublicSelect, connectionToJson } from "@/lib/connections/connection-to-json";
import { freshCredentials, markNeedsReauth } from "@/lib/connections/fresh-credentials";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { findConnectionType, oauthClientFor } from "@/lib/platforms/registry";
import { ProviderRejection, ProviderUnavailable, type TokenSet } from "@/lib/platforms/kit/types";
import type { ConnectionHealth } from "@/lib/schemas/connections";

// CONTRACT §12: a connection's health is what its identity call answers now. `healthy`; the
// provider refused the credential → `needs_reauth` (marked as a refused use marks it, so
// connection.needs_reauth is sent once); it could not be reached (a timeout, a 5xx, a network
// error) → `unreachable`, with the sentence. A change sends connection.health_changed.

export type HealthCheck = { id: string; health: ConnectionHealth; checked_at: number; error: string | null };

/** When the scheduler checks a connection next: an interval from now, jittered ±10 % so checks spread out. */
export function nextCheckAt(now = Date.now()): bigint {
  const interval = connectionCheckIntervalMs();
  return BigInt(Math.round(now + interval * (0.9 + Math.random() * 0.2)));
}

/** The expiry (Unix ms) of stored OAuth tokens, kept beside the sealed credentials for the refresh job. */
export function tokenExpiry(credentials: unknown): bigint | null {
  const oauth = (credentials as { oauth?: TokenSet } | null)?.oauth;
  return typeof oauth?.expiresAt === "number" ? BigInt(Math.round(oauth.expiresAt)) : null;
}

type Probed = { health: ConnectionHealth; error: string | null };

/**
 * Runs the identity call of connection `connectionId` now (in team `teamId`; null: any team, the
 * operator's CLI), stores what it found and when, and sends connection.health_changed if the
 * health changed.
 */
export async function checkConnection(teamId: string | null, connectionId: string): Promise<HealthCheck> {
  const row = await db.connection.findFirst({
    where: { id: connectionId, ...(teamId !== null && { teamId }) },
    select: { id: true, teamId: true, type: true, displayName: true, needsReauthAt: true, healthError: true },
  });
  if (!row) throw notFound(`No connection ${connectionId.slice(0, 255)}${teamId !== null ? " in this team" : ""}.`);
  const probed = await probe(row);
  return recordHealth(row.id, probed);
}

async function probe(row: {
  id: string;
  teamId: string;
  type: string;
  displayName: string | null;
  needsReauthAt: Date | null;
  healthError: string | null;
}): Promise<Probed> {
  // Refused before: nothing but a re-authorization brings it back.
  if (row.needsReauthAt)
    return {
      health: "needs_reauth",
      error: row.healthError ?? "Its provider refused its access; re-authorize it through a new auth link.",
    };
  const def = findConnectionType(row.type);
  if (!def) return { health: "unreachable", error: `The ${row.type} connection type is not available on this server.` };
  try {
    const creds = await freshCredentials(row.teamId, row.id);
    if (creds.kind === "oauth" && def.oauth) {
      const configured = oauthClientFor(def);
      if (!("client" in configured))
        return {
          health: "unreachable",
          error: `${def.name} sign-in is not configured on this server (${configured.missing.join(", ")}).`,
        };
      const ctx = { type: def.type, client: configured.client, redirectUri: oauthRedirectUri() };
      try {
        await def.oauth.identify(ctx, creds.tokens);
      } catch (e) {
        if (!(e instanceof ProviderRejection)) throw e;
        // A refused access token is renewed once (waiting for a refresh under way); refused again is the end.
        const renewed = await freshCredentials(row.teamId, row.id, { rejected: e });
        if (renewed.kind === "oauth") await def.oauth.identify(ctx, renewed.tokens);
      }
    } else if (creds.kind === "manual" && def.verify) {
      await def.verify(creds.credentials, { type: def.type, name: row.displayName ?? def.name });
    }
    return { health: "healthy", error: null };
  } catch (e) {
    if (e instanceof ProviderRejection) {
      await markNeedsReauth(row.id, e);
      return { health: "needs_reauth", error: redactString(`${e.provider} refused its access: ${e.reason}`) };
    }
    if (e instanceof ProviderUnavailable) return { health: "unreachable", error: redactString(e.reason) };
    if (e instanceof ApiError) {
      const detail = typeof e.detail === "string" ? e.detail : "The check failed.";
      // freshCredentials: 409 = the refresh was refused (now marked) or the credentials cannot be
      // read; 502 = the token endpoint could not be reached; 503 = sign-in not configured.
      if (e.status === 409) return { health: "needs_reauth", error: redactString(detail) };
      return { health: "unreachable", error: redactString(detail) };
    }
    throw e;
  }
}

/**
 * Stores a check's result (when, what, the next scheduled check) and, when the health changed,
 * sends connection.health_changed in the same transaction.
 */
async function recordHealth(connectionId: string, probed: Probed): Promise<HealthCheck> {
  const now = Date.now();
  return transaction(async (tx) => {
    const before = await tx.connection.findUnique({ where: { id: connectionId }, select: { health: true } });
    if (!before) throw notFound(`No connection ${connectionId}: it was deleted during the check.`);
    // A raw statement: a check is not a change of the connection, so its updated_at stays.
    await tx.$executeRaw`
      UPDATE "Connection" SET "health" = ${probed.health}, "healthError" = ${probed.error},
        "checkedAt" = ${BigInt(now)}, "nextCheckAt" = ${nextCheckAt(now)}
      WHERE "id" = ${connectionId}`;
    const row = await tx.connection.findUniqueOrThrow({
      where: { id: connectionId },
      select: { ...connectionPublicSelect, teamId: true },
    });
    if (before.health !== probed.health)
      await emitWebhookEvent(tx, row.teamId, "connection.health_changed", {
        connection: connectionToJson(row),
        health: probed.health,
        previous: before.health as ConnectionHealth,
        error: probed.error,
      });
    return { id: connectionId, health: probed.health, checked_at: Math.floor(now / 1000), error: probed.error };
  });
}
