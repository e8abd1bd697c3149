import "server-only";
import { appUrl, sandboxProvidersEnabled } from "@/lib/config/env";
import { PLATFORMS } from "@/lib/platforms/platforms";
import type { ConnectionTypeDefinition, OAuthClient } from "@/lib/platforms/kit/types";
import type { ConnectionTypeJson } from "@/lib/schemas/connections";

const realTypes = PLATFORMS.filter((p) => !p.sandbox).flatMap((p) => p.types);
const sandboxTypes = PLATFORMS.filter((p) => p.sandbox).flatMap((p) => p.types);

export function connectionTypes(): ConnectionTypeDefinition[] {
  return [...realTypes, ...(sandboxProvidersEnabled() ? sandboxTypes : [])];
}

export function findConnectionType(type: string): ConnectionTypeDefinition | undefined {
  return connectionTypes().find((t) => t.type === type);
}

/** The settings that hold a provider's OAuth app (CONTRACT §5). */
function oauthSettingNames(provider: string) {
  return { id: `OAUTH_${provider}_CLIENT_ID`, secret: `OAUTH_${provider}_CLIENT_SECRET` };
}

/**
 * The OAuth app configured for a type, or which settings are missing. The sandbox's app is
 * built in (its provider lives inside Patchbay).
 */
export function oauthClientFor(def: ConnectionTypeDefinition): { client: OAuthClient } | { missing: string[] } {
  if (!def.oauth) return { missing: [] };
  const names = oauthSettingNames(def.oauth.provider);
  const builtIn = def.oauth.provider === "SANDBOX" ? { id: "sandbox-client", secret: "sandbox-secret" } : undefined;
  const clientId = process.env[names.id] || builtIn?.id;
  const clientSecret = process.env[names.secret] || builtIn?.secret;
  if (clientId && clientSecret) return { client: { clientId, clientSecret } };
  return { missing: [!clientId && names.id, !clientSecret && names.secret].filter((n): n is string => Boolean(n)) };
}

/** `oauth` is offered only while the type's OAuth app is configured. */
function offeredAuthMethods(def: ConnectionTypeDefinition): ("oauth" | "manual")[] {
  return def.authMethods.filter((m) => m !== "oauth" || "client" in oauthClientFor(def));
}

export function connectionTypeToJson(def: ConnectionTypeDefinition): ConnectionTypeJson {
  return {
    type: def.type,
    name: def.name,
    auth_methods: offeredAuthMethods(def),
    credential_fields: def.credentialFields,
    docs_url: def.docs ? `${appUrl()}/docs/connections/${def.type}.md` : null,
  };
}
