"use client";

import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/queries/api-client";
import type { ConnectionJson } from "@/lib/schemas/connections";
import type { DashboardConnectionType } from "@/lib/schemas/dashboard";

export type ConnectionFilters = { type?: string; external_id?: string };
export type ActiveWorkflow = { id: string; name: string };
export type NeedsReauth = { id: string; needs_reauth_at: number };

export const connectionKeys = {
  all: (teamId: string) => [teamId, "connections"] as const,
  list: (teamId: string, filters: ConnectionFilters) => [teamId, "connections", "list", filters] as const,
  needsReauth: (teamId: string) => [teamId, "connections", "needs-reauth"] as const,
  workflows: (teamId: string, connectionId: string) => [teamId, "connections", "workflows", connectionId] as const,
  types: (teamId: string) => [teamId, "connection-types"] as const,
};

function filterQuery(filters: ConnectionFilters): string {
  const q = new URLSearchParams();
  if (filters.type) q.set("type", filters.type);
  if (filters.external_id) q.set("external_id", filters.external_id);
  const s = q.toString();
  return s ? `?${s}` : "";
}

const connectionsQuery = (teamId: string, filters: ConnectionFilters) =>
  queryOptions({
    queryKey: connectionKeys.list(teamId, filters),
    queryFn: () => apiFetch<ConnectionJson[]>(teamId, `/v1/connections${filterQuery(filters)}`),
  });

const connectionTypesQuery = (teamId: string) =>
  queryOptions({
    queryKey: connectionKeys.types(teamId),
    queryFn: () => apiFetch<DashboardConnectionType[]>(teamId, "/api/dashboard/connection-types"),
    staleTime: 5 * 60_000,
  });

export const useConnections = (teamId: string, filters: ConnectionFilters) =>
  useQuery(connectionsQuery(teamId, filters));
export const useConnectionTypes = (teamId: string) => useQuery(connectionTypesQuery(teamId));

/**
 * Connections whose provider refused their refresh. The navigation's count and the Connections
 * page share it: always fetched afresh when a page shows it (the navigation's copy, made when the
 * dashboard opened, must not stand for the page's), and every 30 s while the dashboard is open.
 */
export const useConnectionsNeedingReauth = (teamId: string) =>
  useQuery({
    queryKey: connectionKeys.needsReauth(teamId),
    queryFn: () => apiFetch<NeedsReauth[]>(teamId, "/api/dashboard/connections/needs-reauth"),
    staleTime: 0,
    refetchInterval: 30_000,
  });

/** The active workflows a delete would deactivate; always fresh, since the dialog asks for consent on it. */
export const useActiveWorkflowsOf = (teamId: string, connectionId: string | null) =>
  useQuery({
    queryKey: connectionKeys.workflows(teamId, connectionId ?? ""),
    queryFn: () =>
      apiFetch<ActiveWorkflow[]>(teamId, `/api/dashboard/connections/${encodeURIComponent(connectionId!)}/workflows`),
    enabled: connectionId !== null,
    staleTime: 0,
  });

export function useDeleteConnection(teamId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (connectionId: string) =>
      apiFetch<ConnectionJson>(teamId, `/v1/connections/${encodeURIComponent(connectionId)}`, { method: "DELETE" }),
    onSuccess: () => client.invalidateQueries({ queryKey: connectionKeys.all(teamId) }),
  });
}

export type CreateConnectionInput = {
  connection_type: string;
  name: string;
  credentials: Record<string, string>;
  is_private?: boolean;
};

export function useCreateConnection(teamId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateConnectionInput) =>
      apiFetch<ConnectionJson>(teamId, "/v1/connections", { method: "POST", body: JSON.stringify(body) }),
    onSuccess: () => client.invalidateQueries({ queryKey: connectionKeys.all(teamId) }),
  });
}

/** A type's docs page (plain markdown). Fetched by path so it stays on this origin whatever host APP_URL names. */
export const useConnectionTypeDocs = (docsUrl: string | null | undefined) =>
  useQuery({
    queryKey: ["connection-type-docs", docsUrl],
    enabled: Boolean(docsUrl),
    staleTime: Infinity,
    queryFn: async () => {
      const url = new URL(docsUrl!, window.location.origin);
      const res = await fetch(url.origin === window.location.origin ? url.pathname : url.toString());
      if (!res.ok) throw new Error(`The docs page answered HTTP ${res.status}.`);
      return res.text();
    },
  });
