import "server-only";
import { connectionTypes, connectionTypeToJson, oauthClientFor, offeredAuthMethods } from "@/lib/providers/registry";
import type { ConnectionTypeJson } from "@/lib/schemas/connections";
import type { DashboardConnectionType } from "@/lib/schemas/dashboard";

/**
 * GET /v1/connections/types: the types that can be connected on this server, each with at least
 * one auth method (CONTRACT §7). A type whose only way in is an OAuth app that is not configured
 * is left out: an integrator can do nothing with it.
 */
export function listConnectionTypes(): ConnectionTypeJson[] {
  return connectionTypes()
    .filter((def) => offeredAuthMethods(def).length > 0)
    .map(connectionTypeToJson);
}

/** The dashboard's list: every type with its logo; owners also see what is not set up and why. */
export function listDashboardConnectionTypes(role: string | null): DashboardConnectionType[] {
  const owner = role === "owner";
  return connectionTypes().flatMap((def) => {
    const json = connectionTypeToJson(def);
    const configured = oauthClientFor(def);
    const missing = owner && "missing" in configured ? configured.missing : [];
    if (json.auth_methods.length === 0 && !owner) return [];
    return [{ ...json, logo: def.logo ?? null, missing_settings: missing }];
  });
}
