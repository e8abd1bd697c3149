import "server-only";
import { createHash } from "node:crypto";
import { db } from "@/lib/db/client";
import { oauthRedirectUri } from "@/lib/config/env";
import { newId, randomToken } from "@/lib/security/ids";
import { oauthClientFor } from "@/lib/providers/registry";
import { providerUrl } from "@/lib/providers/provider-fetch";
import { ProviderRejection } from "@/lib/providers/types";
import { ConnectError } from "@/lib/auth-links/connect-error";
import { findConnectLink } from "@/lib/auth-links/find-connect-link";
import { signState } from "@/lib/auth-links/oauth-state";

/**
 * "Continue" on a connect page: records an attempt (state, PKCE verifier, Shopify store) and
 * returns the provider's authorize URL to send the browser to.
 */
export async function startOAuth(token: string, input: { shop?: string }): Promise<string> {
  const found = await findConnectLink(token);
  if (!found) throw new ConnectError("invalid_request", "This link does not exist. Ask whoever sent it for a new one.");
  const { link, status, def } = found;
  if (status === "connected") throw new ConnectError("link_used", "This link was already used to connect an account; a link connects one account.");
  if (status === "expired") throw new ConnectError("link_expired", "This link has expired; links are valid for 24 hours. Ask whoever sent it for a new one.");
  if (!def?.oauth) throw new ConnectError("invalid_request", `${link.connectionType} can no longer be connected through OAuth.`);
  const configured = oauthClientFor(def);
  if (!("client" in configured)) throw new ConnectError("provider_error", `${def.name} sign-in is not configured on this server (${configured.missing.join(", ")}).`);

  const shop = def.oauth.needsShop ? (input.shop ?? "").trim().toLowerCase() : undefined;
  if (def.oauth.needsShop && !shop) throw new ConnectError("invalid_request", "Enter your store's domain (like acme.myshopify.com) to continue.");
  const codeVerifier = def.oauth.pkce ? randomToken(64) : undefined;
  const attemptId = newId("oa");
  const state = signState(attemptId, link.id);
  let authorizeUrl: string;
  try {
    authorizeUrl = providerUrl(def, def.oauth.authorizeUrl({
      type: def.type,
      client: configured.client,
      redirectUri: oauthRedirectUri(),
      shop,
      state,
      codeChallenge: codeVerifier && createHash("sha256").update(codeVerifier).digest("base64url"),
    }));
  } catch (e) {
    if (e instanceof ProviderRejection) throw new ConnectError("invalid_request", e.reason);
    throw e;
  }
  await db.oAuthAttempt.create({ data: { id: attemptId, authLinkId: link.id, codeVerifier: codeVerifier ?? null, shop: shop ?? null } });
  return authorizeUrl;
}
