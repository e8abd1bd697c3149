import "server-only";
import { db } from "@/lib/db/client";
import { appUrl, oauthRedirectUri } from "@/lib/config/env";
import { ApiError } from "@/lib/errors/api-error";
import { authLinkStatus, authLinkStatusJson } from "@/lib/auth-links/auth-link-status";
import { transaction } from "@/lib/db/transaction";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import type { WebhookEventData } from "@/lib/schemas/webhook-events";
import { authLinkUrl } from "@/lib/auth-links/create-auth-link";
import { ConnectError, type ConnectErrorCode } from "@/lib/auth-links/connect-error";
import { attemptIdOf, stateMatches } from "@/lib/auth-links/oauth-state";
import { ATTEMPT_LIFETIME_SECONDS, browserMatches } from "@/lib/auth-links/browser-binding";
import { linkTokenOf } from "@/lib/auth-links/link-token";
import { resultRedirectUrl } from "@/lib/auth-links/result-redirect-url";
import { saveConnection, type ConnectionToSave } from "@/lib/connection-changes/save-connection";
import { findConnectionType, oauthClientFor } from "@/lib/platforms/registry";
import {
  ProviderRejection,
  ProviderUnavailable,
  type OAuthContext,
  type OAuthDefinition,
} from "@/lib/platforms/kit/types";

type Link = NonNullable<Awaited<ReturnType<typeof db.authLink.findUnique>>>;

// Provider spellings of "the user said no" (RFC 6749 access_denied; LinkedIn's own codes).
const DENIALS = new Set(["access_denied", "user_cancelled_authorize", "user_cancelled_login", "user_denied"]);

/**
 * GET /oauth/callback: the provider sends the browser back here. Exchanges the code, verifies
 * the account with the identity call, and stores the encrypted tokens as the link's one
 * connection; then sends the browser on to the caller's redirect_url (spec §4.6) or our own
 * result page. Any failure leaves the link pending and retryable until it expires (§3.1).
 * It completes only in the browser that pressed Continue (the attempt's binding cookie, from
 * `cookieHeader`). Returns where to send the browser, and the attempt whose cookie to clear.
 */
export async function completeOAuth(
  query: URLSearchParams,
  cookieHeader: string | null,
): Promise<{ location: string; attemptId?: string }> {
  const state = query.get("state") ?? "";
  const attemptId = attemptIdOf(state);
  const attempt = attemptId ? await findAttempt(attemptId) : null;
  if (!attempt || !stateMatches(state, attempt.id, attempt.authLinkId)) {
    return {
      location: callbackErrorPage(
        "invalid_request",
        "The sign-in response does not belong to any auth link (its state is missing or invalid). Open the link you were sent again.",
      ),
    };
  }
  // Answered before: the person went Back to the provider's page and answered again (the first
  // answer cleared the cookie). Nothing is exchanged; they hear how the first answer ended.
  if (attempt.usedAt) return { location: await answeredBefore(attempt.id), attemptId: attempt.id };
  if (!browserMatches(cookieHeader, attempt.id, attempt.browserHash)) {
    // The cookie lived its time: the sign-in took too long. Nothing is exchanged; the link's own
    // page offers Continue again (it asks the account owner again before anything is connected).
    if (Date.now() - attempt.createdAt.getTime() > ATTEMPT_LIFETIME_SECONDS * 1000)
      return {
        location: `${connectPageOf(attempt.authLink)}?${new URLSearchParams({
          error: "invalid_request",
          error_description: `This sign-in took more than ${ATTEMPT_LIFETIME_SECONDS / 60} minutes to come back, so no account was connected.`,
        })}`,
      };
    // Another browser's attempt: nothing is exchanged or stored, and the link's owner hears
    // nothing (this is what someone forwarding a provider URL to a victim would cause).
    return {
      location: callbackErrorPage(
        "invalid_request",
        "This sign-in was started in another browser, so no account was connected. Finish it in the browser where you pressed Continue, or open the link you were sent in this browser and press Continue.",
      ),
    };
  }
  return { location: await completeAttempt(attempt, query), attemptId: attempt.id };
}

/**
 * Where a callback for an attempt that was already answered goes, from what is known now: the
 * link connected (by that answer or another) is a success, said as such; a link still pending
 * gets its own page back, with how the earlier answer ended and Continue to start again.
 */
async function answeredBefore(attemptId: string): Promise<string> {
  const attempt = await db.oAuthAttempt.findUniqueOrThrow({ where: { id: attemptId }, include: { authLink: true } });
  const link = attempt.authLink;
  const status = authLinkStatus(link);
  if (status === "connected") {
    return link.redirectUrl && link.connectionId
      ? resultRedirectUrl(link.redirectUrl, {
          status: "success",
          connection_type: link.connectionType,
          connection_id: link.connectionId,
          external_id: link.externalId,
        })
      : `${connectPageOf(link)}?status=already_connected`;
  }
  if (status === "expired") return connectPageOf(link);
  const provider = findConnectionType(link.connectionType)?.oauth?.providerName ?? link.connectionType;
  const earlier =
    attempt.outcome === "access_denied"
      ? ` (access was denied at ${provider})`
      : attempt.outcome && attempt.outcome !== "connected"
        ? ` (it did not complete: ${attempt.outcomeDetail ?? attempt.outcome})`
        : "";
  return `${connectPageOf(link)}?${new URLSearchParams({
    error: "invalid_request",
    // The page adds "You can try again below", over its Continue button.
    error_description: `This sign-in was already answered${earlier}, so answering it again at ${provider} changed nothing.`,
  })}`;
}

type Attempt = NonNullable<Awaited<ReturnType<typeof findAttempt>>>;
const findAttempt = (id: string) => db.oAuthAttempt.findUnique({ where: { id }, include: { authLink: true } });

async function completeAttempt(attempt: Attempt, query: URLSearchParams): Promise<string> {
  const link = attempt.authLink;
  try {
    // Single use: of concurrent callbacks carrying one state, exactly one goes on.
    const claimed = await db.oAuthAttempt.updateMany({
      where: { id: attempt.id, usedAt: null },
      data: { usedAt: new Date() },
    });
    // Another callback of this attempt got there first (a double submit): its outcome decides.
    if (claimed.count === 0) return await answeredBefore(attempt.id);
    const status = authLinkStatus(link);
    if (status !== "pending") throw await linkStateError(link.id);

    const def = findConnectionType(link.connectionType);
    if (!def?.oauth)
      throw new ConnectError("invalid_request", `${link.connectionType} can no longer be connected through OAuth.`);
    const providerError = query.get("error");
    if (providerError) {
      const description = query.get("error_description") ?? query.get("error_reason") ?? providerError;
      if (DENIALS.has(providerError))
        throw new ConnectError("access_denied", `Access was not granted at ${def.oauth.providerName}: ${description}`);
      throw new ConnectError(
        "provider_error",
        `${def.oauth.providerName} returned an error: ${providerError}${description !== providerError ? ` (${description})` : ""}`,
      );
    }
    const configured = oauthClientFor(def);
    if (!("client" in configured))
      throw new ConnectError(
        "provider_error",
        `${def.name} sign-in is not configured on this server (${configured.missing.join(", ")}).`,
      );
    const ctx: OAuthContext = {
      type: def.type,
      client: configured.client,
      redirectUri: oauthRedirectUri(),
      shop: attempt.shop ?? undefined,
    };
    const { tokens, account } = await exchangeAndIdentify(def.oauth, ctx, query, attempt.codeVerifier ?? undefined);

    const row = await saveLinkConnection(link, {
      teamId: link.teamId,
      type: def.type,
      typeName: def.name,
      displayName: account.accountName ?? def.name,
      ownerUserId: link.isPrivate ? link.createdByUserId : undefined,
      actingUserId: link.createdByUserId,
      credentials: { oauth: tokens },
      rotationKey: account.rotationKey,
      accountId: account.accountId ?? null,
      externalId: link.externalId,
      // The end user holding the link acts on behalf of whoever created it.
      via: { kind: "auth_link", authLinkId: link.id, actor: { kind: "auth_link", userId: link.createdByUserId } },
    });
    await recordOutcome(attempt.id, "connected", null);
    return link.redirectUrl
      ? resultRedirectUrl(link.redirectUrl, {
          status: "success",
          connection_type: def.type,
          connection_id: row.id,
          external_id: link.externalId,
        })
      : `${connectPageOf(link)}?status=success`;
  } catch (e) {
    if (e instanceof ConnectError) {
      await recordOutcome(attempt.id, e.code, e.description);
      // A denial or a provider's error leaves the link pending: its integrator hears of it.
      if (e.code === "access_denied" || e.code === "provider_error")
        await emitLinkFailed(link.id, e.code, e.description);
      return errorRedirect(link, e.code, e.description);
    }
    // Saving refused the account (a 400, or a 409 such as a shared connection that others use
    // becoming private): the person can act on it, the link stays pending and retryable, and its
    // integrator hears of it as of a provider's error.
    if (e instanceof ApiError && e.status >= 400 && e.status < 500) {
      const description = typeof e.detail === "string" ? e.detail : JSON.stringify(e.detail);
      await recordOutcome(attempt.id, "invalid_request", description);
      await emitLinkFailed(link.id, "invalid_request", description);
      return errorRedirect(link, "invalid_request", description);
    }
    throw e;
  }
}

/** How the attempt's one callback ended, for the dashboard's auth-link card (lib/auth-links/list-auth-links.ts). */
async function recordOutcome(attemptId: string, outcome: ConnectErrorCode | "connected", detail: string | null) {
  await db.oAuthAttempt.update({ where: { id: attemptId }, data: { outcome, outcomeDetail: detail?.slice(0, 1000) } });
}

const LINK_LOST = new Error("auth link lost to another callback");

/**
 * Saves the connection and wins the link in the same transaction, with the auth_link.connected
 * event: a link that another callback consumed, or that expired meanwhile, rolls everything back.
 * Why it was lost is read after the rollback: inside, a second pooled connection could wait on the
 * one this transaction holds.
 */
async function saveLinkConnection(link: Link, connection: ConnectionToSave) {
  try {
    const { row } = await saveConnection(connection, async (tx, saved) => {
      const won = await tx.authLink.updateMany({
        where: { id: link.id, consumedAt: null, expiresAt: { gt: new Date() } },
        data: { consumedAt: new Date(), connectionId: saved.id },
      });
      if (won.count === 0) throw LINK_LOST;
      const after = await tx.authLink.findUniqueOrThrow({ where: { id: link.id } });
      await emitWebhookEvent(tx, link.teamId, "auth_link.connected", {
        auth_link: authLinkStatusJson(after, [saved]),
        connection: saved,
      });
    });
    return row;
  } catch (e) {
    if (e === LINK_LOST) throw await linkStateError(link.id);
    throw e;
  }
}

async function exchangeAndIdentify(
  oauth: OAuthDefinition,
  ctx: OAuthContext,
  callback: URLSearchParams,
  codeVerifier?: string,
) {
  try {
    const tokens = await oauth.exchangeCode({ ...ctx, callback, codeVerifier });
    const account = await oauth.identify(ctx, tokens);
    return { tokens, account };
  } catch (e) {
    if (e instanceof ProviderRejection || e instanceof ProviderUnavailable) {
      throw new ConnectError("provider_error", `${e.provider} did not complete the sign-in: ${e.reason}`);
    }
    throw e;
  }
}

/** Why a link can no longer be used, read fresh (another callback may have just won it). */
async function linkStateError(
  authLinkId: string,
  otherwise = "This link can no longer be used.",
): Promise<ConnectError> {
  const link = await db.authLink.findUniqueOrThrow({ where: { id: authLinkId } });
  const status = authLinkStatus(link);
  if (status === "connected")
    return new ConnectError(
      "link_used",
      "This link was already used to connect an account; a link connects one account.",
    );
  if (status === "expired")
    return new ConnectError(
      "link_expired",
      "This link has expired; links are valid for 24 hours. Ask whoever sent it for a new one.",
    );
  return new ConnectError("invalid_request", otherwise);
}

/** auth_link.failed, with the error redirect's own values; the link itself is unchanged. */
async function emitLinkFailed(
  authLinkId: string,
  error: WebhookEventData["auth_link.failed"]["error"],
  description: string,
) {
  await transaction(async (tx) => {
    const link = await tx.authLink.findUniqueOrThrow({ where: { id: authLinkId } });
    await emitWebhookEvent(tx, link.teamId, "auth_link.failed", {
      auth_link: authLinkStatusJson(link, []),
      error,
      error_description: description,
    });
  });
}

function errorRedirect(link: Link, code: ConnectErrorCode, description: string): string {
  if (link.redirectUrl) {
    return resultRedirectUrl(link.redirectUrl, {
      status: "error",
      error: code,
      error_description: description,
      connection_type: link.connectionType,
      external_id: link.externalId,
    });
  }
  return `${connectPageOf(link)}?${new URLSearchParams({ error: code, error_description: description })}`;
}

/** The link's own connect page; the generic one for a link made before tokens were sealed. */
function connectPageOf(link: { id: string; tokenSealed: string | null }): string {
  const token = linkTokenOf(link);
  return token ? authLinkUrl(token) : `${appUrl()}/connect`;
}

function callbackErrorPage(code: ConnectErrorCode, description: string): string {
  return `${appUrl()}/connect?${new URLSearchParams({ error: code, error_description: description })}`;
}
