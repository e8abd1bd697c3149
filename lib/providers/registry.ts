import "server-only";
import { appUrl, sandboxProvidersEnabled } from "@/lib/config/env";
import { sandboxTypes } from "@/lib/providers/sandbox/sandbox-provider";
import type { ConnectionTypeDefinition } from "@/lib/providers/types";
import type { ConnectionTypeJson } from "@/lib/schemas/connections";

export function connectionTypes(): ConnectionTypeDefinition[] {
  return [...(sandboxProvidersEnabled() ? sandboxTypes : [])];
}

export function findConnectionType(type: string): ConnectionTypeDefinition | undefined {
  return connectionTypes().find((t) => t.type === type);
}

export function connectionTypeToJson(def: ConnectionTypeDefinition): ConnectionTypeJson {
  return {
    type: def.type,
    name: def.name,
    auth_methods: def.authMethods,
    credential_fields: def.credentialFields,
    docs_url: def.docs ? `${appUrl()}/docs/connections/${def.type}.md` : null,
  };
}
