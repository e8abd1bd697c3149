import "server-only";
import { connectionTypes, connectionTypeToJson } from "@/lib/providers/registry";

/**
 * The public ConnectionType list plus each type's logo, for the dashboard: the /v1 JSON has no
 * logo field (the spec's shape is fixed), so the dashboard reads this one instead.
 */
export function listConnectionTypesWithLogos() {
  return connectionTypes().map((def) => ({ ...connectionTypeToJson(def), logo: def.logo ?? null }));
}
