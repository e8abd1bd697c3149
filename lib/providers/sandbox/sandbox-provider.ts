import "server-only";
import { appUrl } from "@/lib/config/env";
import { providerFetch, providerReason } from "@/lib/providers/provider-fetch";
import { ProviderRejection, ProviderUnavailable, type ConnectionTypeDefinition } from "@/lib/providers/types";
import { sandboxDocs } from "@/lib/providers/sandbox/sandbox-docs";

// Client side of the sandbox provider: the app talks to it over HTTP exactly as it talks to a
// real provider (token endpoint, then identity call), so every flow runs end to end offline.

const PROVIDER = "Sandbox";

async function identity(type: string, headers: Record<string, string>) {
  const res = await providerFetch(PROVIDER, type, `${appUrl()}/sandbox/api/me`, { headers });
  if (res.status === 401 || res.status === 403) throw new ProviderRejection(PROVIDER, providerReason(res));
  const me = res.body as { id?: string; name?: string } | null;
  if (res.status !== 200 || !me?.id) throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the identity call with ${providerReason(res)}.`);
  return { accountId: me.id, accountName: me.name };
}

export const sandboxTypes: ConnectionTypeDefinition[] = [
  {
    type: "sandbox_oauth",
    name: "Sandbox (OAuth)",
    authMethods: ["oauth"],
    credentialFields: null,
    docs: sandboxDocs.sandbox_oauth,
    family: "oauth_only",
  },
  {
    type: "sandbox_whitelabel",
    name: "Sandbox (white-label)",
    authMethods: ["oauth", "manual"],
    credentialFields: ["client_id", "client_secret", "refresh_token"],
    docs: sandboxDocs.sandbox_whitelabel,
    family: "white_label",
    async verify(credentials, ctx) {
      const res = await providerFetch(PROVIDER, ctx.type, `${appUrl()}/sandbox/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: credentials.refresh_token,
          client_id: credentials.client_id,
          client_secret: credentials.client_secret,
        }),
      });
      if (res.status >= 400 && res.status < 500) throw new ProviderRejection(PROVIDER, providerReason(res));
      const token = (res.body as { access_token?: string } | null)?.access_token;
      if (res.status !== 200 || !token) throw new ProviderUnavailable(PROVIDER, `${PROVIDER} token endpoint answered ${providerReason(res)}.`);
      const account = await identity(ctx.type, { authorization: `Bearer ${token}` });
      return { ...account, rotationKey: `name:${ctx.name}` };
    },
  },
  {
    type: "sandbox_key",
    name: "Sandbox (API key)",
    authMethods: ["manual"],
    credentialFields: ["api_key"],
    docs: sandboxDocs.sandbox_key,
    family: "api_key",
    async verify(credentials, ctx) {
      const account = await identity(ctx.type, { "x-api-key": credentials.api_key });
      return { ...account, rotationKey: null };
    },
  },
];
