"use client";

import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/queries/api-client";
import type { OperationJson } from "@/lib/operations/operation-json";

/** A connection of the viewer's that can run the operation. */
export type OperationConnectionJson = {
  id: string;
  type: string;
  display_name: string | null;
  external_id: string | null;
};
/** One catalogue entry as GET /api/dashboard/operations answers it. */
export type CatalogueOperation = OperationJson & { connections: OperationConnectionJson[] };

/** The filters the Operations page keeps in the URL: a search, a platform (connection type), read or write. */
export const OPERATION_FILTER_KEYS = ["q", "platform", "kind"] as const;
export type OperationFilters = Partial<Record<(typeof OPERATION_FILTER_KEYS)[number], string>>;

const operationKeys = {
  all: (teamId: string) => [teamId, "operations"] as const,
  catalogue: (teamId: string) => [teamId, "operations", "catalogue"] as const,
};

const operationsCatalogueQuery = (teamId: string) =>
  queryOptions({
    queryKey: operationKeys.catalogue(teamId),
    queryFn: ({ signal }) =>
      apiFetch<{ data: CatalogueOperation[] }>(teamId, "/api/dashboard/operations", { signal }).then((r) => r.data),
  });

export const useOperationsCatalogue = (teamId: string) => useQuery(operationsCatalogueQuery(teamId));

/** The catalogue narrowed by the page's filters; the search matches id, title and description, every word. */
export function filterOperations(all: CatalogueOperation[], filters: OperationFilters): CatalogueOperation[] {
  const words = (filters.q ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  return all.filter(
    (op) =>
      (!filters.kind || op.kind === filters.kind) &&
      (!filters.platform || op.connection_types.some((t) => t.type === filters.platform)) &&
      words.every((w) => `${op.id} ${op.title} ${op.description}`.toLowerCase().includes(w)),
  );
}

/** The connection types the catalogue runs on, by name, for the platform filter. */
export function platformsOf(all: CatalogueOperation[]): { type: string; name: string }[] {
  const byType = new Map<string, string>();
  for (const op of all) for (const t of op.connection_types) byType.set(t.type, t.name);
  return [...byType].map(([type, name]) => ({ type, name })).sort((a, b) => a.name.localeCompare(b.name));
}

export const connectionLabel = (c: OperationConnectionJson) => c.display_name ?? c.external_id ?? c.id;
