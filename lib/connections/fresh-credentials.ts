import "server-only";
import { db, type Prisma } from "@/lib/db/client";
import { transaction } from "@/lib/db/transaction";
import { connectionPublicSelect, connectionToJson } from "@/lib/connections/connection-to-json";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { redactString } from "@/lib/observability/redact";
import { ApiError } from "@/lib/errors/api-error";
import { decryptJson, encryptJson, UnreadableEnvelope } from "@/lib/security/encryption";
import { logger } from "@/lib/observability/logger";
import { findConnectionType, oauthClientFor } from "@/lib/platforms/registry";
import { oauthRedirectUri } from "@/lib/config/env";
import { tokenRefreshAheadMs } from "@/lib/config/limits";
import {
  ProviderRejection,
  ProviderUnavailable,
  type FreshCredentials,
  type TokenSet,
} from "@/lib/platforms/kit/types";

/** The columns of a connection its credentials are opened from. */
export const CREDENTIAL_SELECT = {
  id: true,
  type: true,
  credentials: true,
  needsReauthAt: true,
} as const satisfies Prisma.ConnectionSelect;

/**
 * A connection row of CREDENTIAL_SELECT, as the caller just read it (a workflow node's:
 * lib/operations/run-operation.ts).
 */
export type CredentialRow = Prisma.ConnectionGetPayload<{ select: typeof CREDENTIAL_SELECT }>;

/** How long one instance may hold a connection's refresh before another may take it over. */
const REFRESH_LEASE_MS = 30_000;
/** How often a call waiting for another's refresh looks whether it ended. */
const REFRESH_WAIT_POLL_MS = 50;

/**
 * A connection's credentials, ready to call its provider with: an OAuth access token within
 * TOKEN_REFRESH_AHEAD_SECONDS of its expiry is refreshed first (and the new tokens stored); after
 * the provider refused the token (`rejected`), it is refreshed whatever its expiry. One refresh per
 * connection runs at a time across instances: a call that finds one under way waits for it and
 * takes its tokens. A refresh the provider rejects, or one that is impossible after such a refusal,
 * marks the connection as needing re-authorization and fails with 409, instead of failing silently.
 */
export async function freshCredentials(
  teamId: string,
  connectionId: string,
  options: { rejected?: ProviderRejection; read?: CredentialRow } = {},
): Promise<FreshCredentials> {
  const row =
    options.read ?? (await db.connection.findFirst({ where: { id: connectionId, teamId }, select: CREDENTIAL_SELECT }));
  if (!row) throw new ApiError(404, `No connection ${connectionId} in this team.`);
  const stored = openCredentials(row.id, row.credentials);
  if (!stored.oauth) return { kind: "manual", credentials: stored as Record<string, string> };
  const tokens = stored.oauth as TokenSet;
  if (row.needsReauthAt) throw needsReauth(row.type);
  const def = findConnectionType(row.type);
  if (!def?.oauth?.refresh || !tokens.refreshToken) {
    // Nothing to renew it with: a refused token is the end of this grant.
    if (options.rejected) throw await markNeedsReauth(row.id, options.rejected);
    return { kind: "oauth", tokens };
  }
  if (!expiring(tokens) && !options.rejected) return { kind: "oauth", tokens };
  return { kind: "oauth", tokens: await refreshOnce(row, tokens, def, options.rejected !== undefined) };
}

const expiring = (tokens: TokenSet) =>
  tokens.expiresAt != null && tokens.expiresAt - Date.now() < tokenRefreshAheadMs();

type RefreshDefinition = NonNullable<ReturnType<typeof findConnectionType>>;

/**
 * Refreshes `seen` (the tokens the caller read) under the connection's refresh lease: the instance
 * that takes the lease refreshes; any other waits until it ends and uses the tokens it stored. A
 * lease whose holder died runs out after REFRESH_LEASE_MS and is taken over.
 */
async function refreshOnce(
  row: { id: string; type: string },
  seen: TokenSet,
  def: RefreshDefinition,
  rejected: boolean,
) {
  // Renewed by someone else since the caller read `seen`: a refused token replaced, or an
  // expiring one no longer expiring.
  const renewed = (current: TokenSet) =>
    rejected ? current.accessToken !== seen.accessToken || current.expiresAt !== seen.expiresAt : !expiring(current);
  for (let attempt = 0; ; attempt++) {
    const now = Date.now();
    // Raw statements: the lease is bookkeeping, not a change of the connection (updated_at stays).
    const claimed = await db.$executeRaw`
      UPDATE "Connection" SET "refreshingUntil" = ${BigInt(now + REFRESH_LEASE_MS)}
      WHERE "id" = ${row.id} AND ("refreshingUntil" IS NULL OR "refreshingUntil" < ${BigInt(now)})`;
    if (claimed === 1) {
      try {
        // Another instance may have refreshed between the caller's read and this claim.
        const current = await currentTokens(row);
        if (renewed(current)) return current;
        return await refresh(row, current, def);
      } finally {
        await db.$executeRaw`UPDATE "Connection" SET "refreshingUntil" = NULL WHERE "id" = ${row.id}`;
      }
    }
    await refreshEnded(row.id);
    const current = await currentTokens(row);
    if (renewed(current)) return current;
    // The other refresh ended without new tokens (the provider was unreachable): try it here, a few times at most.
    if (attempt >= 2)
      throw new ApiError(502, `${def.name} could not refresh this connection's token; try again in a moment.`);
  }
}

/** Waits until no instance holds the connection's refresh (or its lease ran out). */
async function refreshEnded(connectionId: string) {
  const deadline = Date.now() + REFRESH_LEASE_MS + 1000;
  while (Date.now() < deadline) {
    const row = await db.connection.findUnique({ where: { id: connectionId }, select: { refreshingUntil: true } });
    if (!row?.refreshingUntil || Number(row.refreshingUntil) < Date.now()) return;
    await new Promise((r) => setTimeout(r, REFRESH_WAIT_POLL_MS));
  }
}

async function currentTokens(row: { id: string; type: string }): Promise<TokenSet> {
  const current = await db.connection.findUnique({
    where: { id: row.id },
    select: { credentials: true, needsReauthAt: true },
  });
  if (!current) throw new ApiError(404, `Connection ${row.id} was deleted.`);
  if (current.needsReauthAt) throw needsReauth(row.type);
  return openCredentials(row.id, current.credentials).oauth as TokenSet;
}

async function refresh(row: { id: string }, tokens: TokenSet, def: RefreshDefinition): Promise<TokenSet> {
  const configured = oauthClientFor(def);
  if (!("client" in configured))
    throw new ApiError(
      503,
      `${def.name} sign-in is not configured on this server (${configured.missing.join(", ")}), so its token cannot be refreshed.`,
    );
  try {
    const next = await def.oauth!.refresh!(
      { type: def.type, client: configured.client, redirectUri: oauthRedirectUri() },
      tokens.refreshToken!,
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
      data: {
        credentials: encryptJson({ oauth: merged }, `connection:${row.id}`),
        tokenExpiresAt: merged.expiresAt != null ? BigInt(Math.round(merged.expiresAt)) : null,
      },
    });
    return merged;
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
    const before = await tx.connection.findUnique({ where: { id: connectionId }, select: { health: true } });
    const reason = redactString(rejection.reason);
    const entered = await tx.connection.updateMany({
      where: { id: connectionId, needsReauthAt: null },
      data: {
        needsReauthAt: new Date(),
        health: "needs_reauth",
        healthError: redactString(`${rejection.provider} refused its access: ${rejection.reason}`),
      },
    });
    if (entered.count === 0) return;
    const row = await tx.connection.findUniqueOrThrow({
      where: { id: connectionId },
      select: { ...connectionPublicSelect, teamId: true, healthError: true },
    });
    const { healthError, ...connection } = row;
    await emitWebhookEvent(tx, row.teamId, "connection.needs_reauth", {
      connection: connectionToJson(connection),
      reason,
    });
    if (before && before.health !== "needs_reauth")
      await emitWebhookEvent(tx, row.teamId, "connection.health_changed", {
        connection: connectionToJson(connection),
        health: "needs_reauth",
        previous: before.health as "healthy" | "unreachable",
        error: healthError,
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
