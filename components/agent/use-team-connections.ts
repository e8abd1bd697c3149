"use client";

import { useMemo } from "react";
import { useConnections, useConnectionTypes } from "@/lib/queries/connections";
import type { ConnectionJson } from "@/lib/schemas/connections";
import type { DashboardConnectionType } from "@/lib/schemas/dashboard";

export type TeamConnection = ConnectionJson & { id: string; name: string; typeName: string; platform: string };

/** "Sandbox (API key)" belongs to the platform "Sandbox": a type's name without its parenthesis. */
const platformOf = (typeName: string) => typeName.replace(/\s*\(.*\)$/, "");

/**
 * The connections the member sees, named, split into the models the agent can talk to (a type
 * with a default model) and the rest, which the agent may use; and a lookup of any id by name.
 */
export function useTeamConnections(teamId: string) {
  const connections = useConnections(teamId, {});
  const types = useConnectionTypes(teamId);
  const index = useMemo(() => {
    const typeByName = new Map<string, DashboardConnectionType>((types.data ?? []).map((t) => [t.type, t]));
    const all: TeamConnection[] = (connections.data ?? []).flatMap((c) => {
      if (!c.id) return [];
      const typeName = typeByName.get(c.type)?.name ?? c.type;
      return [
        { ...c, id: c.id, name: c.display_name || c.external_id || c.id, typeName, platform: platformOf(typeName) },
      ];
    });
    const byId = new Map(all.map((c) => [c.id, c]));
    const isModel = (c: TeamConnection) => Boolean(typeByName.get(c.type)?.default_model);
    return {
      models: all.filter(isModel),
      tools: all.filter((c) => !isModel(c)),
      byId,
      /** A connection's name, or its id when the member cannot see it (a teammate's private one, a deleted one). */
      nameOf: (id: string) => byId.get(id)?.name ?? id,
      defaultModelOf: (type: string) => typeByName.get(type)?.default_model ?? null,
      /** The sandbox model's docs when this server offers it (SANDBOX_PROVIDERS=1). */
      sandboxModelDocs: typeByName.get("sandbox_model")?.docs_url ?? null,
    };
  }, [connections.data, types.data]);
  return {
    ...index,
    isPending: connections.isPending || types.isPending,
    error: connections.error ?? types.error,
    refetch: () => Promise.all([connections.refetch(), types.refetch()]),
  };
}
