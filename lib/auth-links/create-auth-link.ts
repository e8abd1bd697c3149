import "server-only";
import { transaction } from "@/lib/db/transaction";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { badRequest } from "@/lib/errors/api-error";
import { appUrl } from "@/lib/config/env";
import { newId } from "@/lib/security/ids";
import { newLinkToken } from "@/lib/auth-links/link-token";
import { findConnectionType, oauthClientFor } from "@/lib/platforms/registry";
import { AUTH_LINK_LIFETIME_MS } from "@/lib/auth-links/auth-link-status";
import type { CreateAuthLinkBody } from "@/lib/schemas/auth-links";
import type { Principal } from "@/lib/api-keys/authenticate-api-key";

export function authLinkUrl(token: string) {
  return `${appUrl()}/connect/${token}`;
}

/** POST /v1/connections/auth-link (spec §4.6): a link valid for 24 hours that creates one connection. */
export async function createAuthLink(principal: Principal, body: CreateAuthLinkBody) {
  const def = findConnectionType(body.connection_type);
  if (!def)
    throw badRequest(
      `Unknown connection_type ${JSON.stringify(body.connection_type)}; GET /v1/connections/types lists the types.`,
    );
  if (!def.authMethods.includes("oauth") || !def.oauth) {
    throw badRequest(
      `${def.type} does not connect through OAuth; create it from credentials instead (POST /v1/connections with ${(def.credentialFields ?? []).join(", ")}).`,
    );
  }
  const configured = oauthClientFor(def);
  if (!("client" in configured)) {
    throw badRequest(
      `${def.type} cannot connect through OAuth on this server: its OAuth app is not configured (set ${configured.missing.join(" and ")}).`,
    );
  }
  const now = Date.now();
  const id = newId("al");
  const { token, tokenHash, tokenSealed } = newLinkToken(id);
  const link = await transaction(async (tx) => {
    const created = await tx.authLink.create({
      data: {
        id,
        tokenHash,
        tokenSealed,
        teamId: principal.team.id,
        createdByUserId: principal.user.id,
        connectionType: def.type,
        externalId: body.external_id ?? null,
        redirectUrl: body.redirect_url ?? null,
        isPrivate: body.is_private ?? false,
        createdAt: new Date(now),
        expiresAt: new Date(now + AUTH_LINK_LIFETIME_MS),
      },
    });
    // Never the link's URL: its token is what lets anyone connect an account to this team.
    await recordAuditEvent(tx, {
      teamId: principal.team.id,
      action: "auth_link.create",
      target: { type: "auth_link", id: created.id },
      details: {
        connection_type: def.type,
        private: created.isPrivate,
        has_redirect_url: created.redirectUrl !== null,
      },
    });
    return created;
  });
  return { id: link.id, url: authLinkUrl(token), expires_at: link.expiresAt.getTime() };
}
