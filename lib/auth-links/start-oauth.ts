import "server-only";
import { createHash } from "node:crypto";
import { db } from "@/lib/db/client";
import { oauthRedirectUri } from "@/lib/config/env";
import { newId, randomToken } from "@/lib/security/ids";
import { oauthClientFor } from "@/lib/platforms/registry";
import { providerUrl } from "@/lib/platforms/kit/provider-fetch";
import { ProviderRejection } from "@/lib/platforms/kit/types";
import { ConnectError } from "@/lib/auth-links/connect-error";
import { findConnectLink } from "@/lib/auth-links/find-connect-link";
import { signState } from "@/lib/auth-links/oauth-state";
import { bindingCookie, newBrowserBinding } from "@/lib/auth-links/browser-binding";

/**
 * "Continue" on a connect page: records an attempt (state, PKCE verifier, Shopify store, the
 * hash of the pressing browser's binding cookie) and returns the provider's authorize URL to send the
 * browser to, with the cookie to set. The form is read (`readShop`) only once the link is known
 * to be usable and only when the type asks for a store, so an unknown token costs one lookup.
 */
export async function startOAuth(
  token: string,
  readShop: () => Promise<string | undefined>,
): Promise<{ authorizeUrl: string; cookie: string }> {
  const found = await findConnectLink(token);
  if (!found) throw new ConnectError("invalid_request", "This link does not exist. Ask whoever sent it for a new one.");
  const { link, status, def } = found;
  if (status === "connected")
    throw new ConnectError(
      "link_used",
      "This link was already used to connect an account; a link connects one account.",
    );
  if (status === "expired")
    throw new ConnectError(
      "link_expired",
      "This link has expired; links are valid for 24 hours. Ask whoever sent it for a new one.",
    );
  if (!def?.oauth)
    throw new ConnectError("invalid_request", `${link.connectionType} can no longer be connected through OAuth.`);
  const configured = oauthClientFor(def);
  if (!("client" in configured))
    throw new ConnectError(
      "provider_error",
      `${def.name} sign-in is not configured on this server (${configured.missing.join(", ")}).`,
    );

  const shop = def.oauth.needsShop ? ((await readShop()) ?? "").trim().toLowerCase() : undefined;
  if (def.oauth.needsShop && !shop)
    throw new ConnectError("invalid_request", "Enter your store's domain (like acme.myshopify.com) to continue.");
  const codeVerifier = def.oauth.pkce ? randomToken(64) : undefined;
  const attemptId = newId("oa");
  const state = signState(attemptId, link.id);
  let authorizeUrl: string;
  try {
    authorizeUrl = providerUrl(
      def,
      def.oauth.authorizeUrl({
        type: def.type,
        client: configured.client,
        redirectUri: oauthRedirectUri(),
        shop,
        state,
        codeChallenge: codeVerifier && createHash("sha256").update(codeVerifier).digest("base64url"),
      }),
    );
  } catch (e) {
    if (e instanceof ProviderRejection) throw new ConnectError("invalid_request", e.reason);
    throw e;
  }
  const binding = newBrowserBinding();
  await db.oAuthAttempt.create({
    data: {
      id: attemptId,
      authLinkId: link.id,
      codeVerifier: codeVerifier ?? null,
      shop: shop ?? null,
      browserHash: binding.hash,
    },
  });
  return { authorizeUrl, cookie: bindingCookie(attemptId, binding.value) };
}
