import "server-only";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/api/errors";
import { decryptJson, encryptJson } from "@/lib/security/encryption";
import { findConnectionType, oauthClientFor } from "@/lib/providers/registry";
import { oauthRedirectUri } from "@/lib/config/env";
import { ProviderRejection, ProviderUnavailable, type FreshCredentials, type TokenSet } from "@/lib/providers/types";

/** Refresh this long before the access token expires, so a call never starts on a dying token. */
const REFRESH_MARGIN_MS = 5 * 60 * 1000;

/**
 * A connection's credentials, ready to call its provider with: an OAuth access token near its
 * expiry is refreshed first (and the new tokens stored). A refresh the provider rejects marks
 * the connection as needing re-authorization and fails with 409, instead of failing silently.
 */
export async function freshCredentials(teamId: string, connectionId: string): Promise<FreshCredentials> {
  const row = await db.connection.findFirst({ where: { id: connectionId, teamId }, select: { id: true, type: true, credentials: true, needsReauthAt: true } });
  if (!row) throw new ApiError(404, `No connection ${connectionId} in this team.`);
  const stored = decryptJson<Record<string, unknown>>(row.credentials);
  if (!stored.oauth) return { kind: "manual", credentials: stored as Record<string, string> };
  const tokens = stored.oauth as TokenSet;
  if (row.needsReauthAt) throw needsReauth(row.type);
  const expiring = tokens.expiresAt != null && tokens.expiresAt - Date.now() < REFRESH_MARGIN_MS;
  const def = findConnectionType(row.type);
  if (!expiring || !tokens.refreshToken || !def?.oauth?.refresh) return { kind: "oauth", tokens };

  const configured = oauthClientFor(def);
  if (!("client" in configured)) throw new ApiError(503, `${def.name} sign-in is not configured on this server (${configured.missing.join(", ")}), so its token cannot be refreshed.`);
  try {
    const next = await def.oauth.refresh({ type: def.type, client: configured.client, redirectUri: oauthRedirectUri() }, tokens.refreshToken);
    // Providers that do not rotate refresh tokens send none back: keep the one we have.
    const merged: TokenSet = { ...tokens, ...next, refreshToken: next.refreshToken ?? tokens.refreshToken, extra: { ...tokens.extra, ...next.extra } };
    await db.connection.update({ where: { id: row.id }, data: { credentials: encryptJson({ oauth: merged }) } });
    return { kind: "oauth", tokens: merged };
  } catch (e) {
    if (e instanceof ProviderRejection) {
      await db.connection.update({ where: { id: row.id }, data: { needsReauthAt: new Date() } });
      throw new ApiError(409, `${e.provider} refused to refresh this connection's access (${e.reason}); it needs to be re-authorized through a new auth link.`);
    }
    if (e instanceof ProviderUnavailable) throw new ApiError(502, e.reason);
    throw e;
  }
}

const needsReauth = (type: string) => new ApiError(409, `This ${type} connection needs to be re-authorized: its provider refused a token refresh. Create a new auth link for the same account.`);
