import "server-only";
import { connectionTypes, connectionTypeToJson, oauthClientFor } from "@/lib/platforms/registry";
import type { ConnectionTypeJson } from "@/lib/schemas/connections";
import type { DashboardConnectionType } from "@/lib/schemas/dashboard";

/**
 * GET /v1/connections/types: the types that can be connected on this server, each with at least
 * one auth method (CONTRACT §7). A type whose only way in is an OAuth app that is not configured
 * is left out: an integrator can do nothing with it.
 */
export function listConnectionTypes(): ConnectionTypeJson[] {
  return connectionTypes()
    .map(connectionTypeToJson)
    .filter((t) => t.auth_methods.length > 0);
}

/** The dashboard's list: every type with its logo; owners also see what is not set up and why. */
export function listDashboardConnectionTypes(role: string | null): DashboardConnectionType[] {
  const owner = role === "owner";
  return connectionTypes().flatMap((def) => {
    const json = connectionTypeToJson(def);
    const extra = { logo: def.logo ?? null, default_model: def.model?.defaultModel ?? null };
    if (!owner) return json.auth_methods.length ? [{ ...json, ...extra, missing_settings: [] }] : [];
    const configured = oauthClientFor(def);
    return [{ ...json, ...extra, missing_settings: "missing" in configured ? configured.missing : [] }];
  });
}
