"use client";

import { useMemo } from "react";
import {
  connectionLabel,
  useOperationsCatalogue,
  type CatalogueOperation,
  type OperationConnectionJson,
} from "@/lib/queries/operations";

export type CatalogueIndex = {
  operations: CatalogueOperation[];
  byId: Map<string, CatalogueOperation>;
  /** Every connection of the viewer's that some operation runs on, once each. */
  connections: OperationConnectionJson[];
  typeName: (type: string) => string;
  /**
   * A connection's name with its platform, e.g. "Notes account (Sandbox (API key))"; the id when
   * the viewer cannot see it.
   */
  describeConnection: (id: string) => string;
};

/**
 * The platform an operation belongs to in the picker: its connection types' product name, or
 * "Built-in" for the utilities.
 */
export function platformOf(op: CatalogueOperation): string {
  if (!op.connection_types.length) return "Built-in";
  return [...new Set(op.connection_types.map((t) => t.name.replace(/\s*\(.*\)$/, "")))].join(" / ");
}

export const isBuiltIn = (op: CatalogueOperation) => op.connection_types.length === 0;

/** The operations catalogue indexed for the editor, the templates and the workflow page. */
export function useCatalogue(teamId: string) {
  const query = useOperationsCatalogue(teamId);
  const index = useMemo<CatalogueIndex | undefined>(() => {
    if (!query.data) return undefined;
    const operations = query.data;
    const byId = new Map(operations.map((op) => [op.id, op]));
    const names = new Map<string, string>();
    const seen = new Map<string, OperationConnectionJson>();
    for (const op of operations) {
      for (const t of op.connection_types) names.set(t.type, t.name);
      for (const c of op.connections) seen.set(c.id, c);
    }
    const connections = [...seen.values()];
    const typeName = (type: string) => names.get(type) ?? type;
    const describeConnection = (id: string) => {
      const c = seen.get(id);
      return c ? `${connectionLabel(c)} (${typeName(c.type)})` : id;
    };
    return { operations, byId, connections, typeName, describeConnection };
  }, [query.data]);
  return { index, isPending: query.isPending, error: query.error, refetch: query.refetch };
}
