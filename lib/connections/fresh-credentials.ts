import "server-only";
import { db } from "@/lib/db/client";
import { transaction } from "@/lib/db/transaction";
import { connectionPublicSelect, connectionToJson } from "@/lib/connections/connection-to-json";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { redactString } from "@/lib/observability/redact";
import { ApiError } from "@/lib/errors/api-error";
import { decryptJson, encryptJson, UnreadableEnvelope } from "@/lib/security/encryption";
import { logger } from "@/lib/observability/logger";
import { findConnectionType, oauthClientFor } from "@/lib/platforms/registry";
import { oauthRedirectUri } from "@/lib/config/env";
import {
  ProviderRejection,
  ProviderUnavailable,
  type FreshCredentials,
  type TokenSet,
} from "@/lib/platforms/kit/types";

/** Refresh this long before the access token expires, so a call never starts on a dying token. */
const REFRESH_MARGIN_MS = 5 * 60 * 1000;

/**
 * A connection's credentials, ready to call its provider with: an OAuth access token near its
 * expiry is refreshed first (and the new tokens stored); after the provider refused the token
 * (`rejected`), it is refreshed whatever its expiry. A refresh the provider rejects, or one that
 * is impossible after such a refusal, marks the connection as needing re-authorization and fails
 * with 409, instead of failing silently.
 */
export async function freshCredentials(
  teamId: string,
  connectionId: string,
  options: { rejected?: ProviderRejection } = {},
): Promise<FreshCredentials> {
  const row = await db.connection.findFirst({
    where: { id: connectionId, teamId },
    select: { id: true, type: true, credentials: true, needsReauthAt: true },
  });
  if (!row) throw new ApiError(404, `No connection ${connectionId} in this team.`);
  const stored = openCredentials(row.id, row.credentials);
  if (!stored.oauth) return { kind: "manual", credentials: stored as Record<string, string> };
  const tokens = stored.oauth as TokenSet;
  if (row.needsReauthAt) throw needsReauth(row.type);
  const expiring = tokens.expiresAt != null && tokens.expiresAt - Date.now() < REFRESH_MARGIN_MS;
  const def = findConnectionType(row.type);
  const { refreshToken } = tokens;
  if (!def?.oauth?.refresh || !refreshToken) {
    // Nothing to renew it with: a refused token is the end of this grant.
    if (options.rejected) throw await markNeedsReauth(row.id, options.rejected);
    return { kind: "oauth", tokens };
  }
  if (!expiring && !options.rejected) return { kind: "oauth", tokens };

  const configured = oauthClientFor(def);
  if (!("client" in configured))
    throw new ApiError(
      503,
      `${def.name} sign-in is not configured on this server (${configured.missing.join(", ")}), so its token cannot be refreshed.`,
    );
  try {
    const next = await def.oauth.refresh(
      { type: def.type, client: configured.client, redirectUri: oauthRedirectUri() },
      refreshToken,
    );
    // Providers that do not rotate refresh tokens send none back: keep the one we have.
    const merged: TokenSet = {
      ...tokens,
      ...next,
      refreshToken: next.refreshToken ?? tokens.refreshToken,
      extra: { ...tokens.extra, ...next.extra },
    };
    await db.connection.update({
      where: { id: row.id },
      data: { credentials: encryptJson({ oauth: merged }, `connection:${row.id}`) },
    });
    return { kind: "oauth", tokens: merged };
  } catch (e) {
    if (e instanceof ProviderRejection) throw await markNeedsReauth(row.id, e);
    if (e instanceof ProviderUnavailable) throw new ApiError(502, e.reason);
    throw e;
  }
}

/**
 * Marks a connection whose provider no longer accepts its access (a refused refresh, or a
 * refused token that could not be renewed) as needing re-authorization; returns the 409 to throw.
 * Entering that state writes the connection.needs_reauth event, once: later refusals find it
 * already marked.
 */
export async function markNeedsReauth(connectionId: string, rejection: ProviderRejection): Promise<ApiError> {
  await transaction(async (tx) => {
    // Only the first refusal stamps the time: the dashboard says since when.
    const entered = await tx.connection.updateMany({
      where: { id: connectionId, needsReauthAt: null },
      data: { needsReauthAt: new Date() },
    });
    if (entered.count === 0) return;
    const row = await tx.connection.findUniqueOrThrow({
      where: { id: connectionId },
      select: { ...connectionPublicSelect, teamId: true },
    });
    await emitWebhookEvent(tx, row.teamId, "connection.needs_reauth", {
      connection: connectionToJson(row),
      reason: redactString(rejection.reason),
    });
  });
  return new ApiError(
    409,
    `${rejection.provider} no longer accepts this connection's access (${rejection.reason}); it needs to be re-authorized through a new auth link for the same account.`,
  );
}

const needsReauth = (type: string) =>
  new ApiError(
    409,
    `This ${type} connection needs to be re-authorized: its provider no longer accepts its access (revoked, or a refresh was refused). Create a new auth link for the same account.`,
  );

/**
 * The stored credentials of a connection. An envelope that does not open (a key that is no
 * longer configured, or a row altered in the database) is a 409 that says so, and an error in
 * the server's log: the connection has to be connected again.
 */
function openCredentials(connectionId: string, envelope: string): Record<string, unknown> {
  try {
    return decryptJson<Record<string, unknown>>(envelope, `connection:${connectionId}`);
  } catch (e) {
    if (!(e instanceof UnreadableEnvelope)) throw e;
    logger.error("stored credentials do not open", { connection_id: connectionId, reason: e.message });
    throw new ApiError(
      409,
      `The stored credentials of connection ${connectionId} cannot be read (${e.message}); connect the account again.`,
    );
  }
}
