"use client";

import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/queries/api-client";
import type { ConnectionJson } from "@/lib/schemas/connections";
import type { DashboardConnectionType } from "@/lib/schemas/dashboard";
import type {
  BulkDeletePreviewJson,
  BulkDeleteResultJson,
  ConnectionErrorsJson,
  ConnectionFactsJson,
  ConnectionPageJson,
  ConnectionSpendJson,
} from "@/lib/schemas/connection-page";

export type ConnectionFilters = { type?: string; external_id?: string };
export type NeedsReauth = { id: string; needs_reauth_at: number };

export const connectionKeys = {
  all: (teamId: string) => [teamId, "connections"] as const,
  list: (teamId: string, filters: ConnectionFilters) => [teamId, "connections", "list", filters] as const,
  needsReauth: (teamId: string) => [teamId, "connections", "needs-reauth"] as const,
  facts: (teamId: string) => [teamId, "connections", "facts"] as const,
  page: (teamId: string, connectionId: string) => [teamId, "connections", "page", connectionId] as const,
  spend: (teamId: string, connectionId: string) => [teamId, "connections", "spend", connectionId] as const,
  errors: (teamId: string, connectionId: string) => [teamId, "connections", "errors", connectionId] as const,
  deletePreview: (teamId: string, connectionIds: string[]) =>
    [teamId, "connections", "delete-preview", connectionIds] as const,
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

/**
 * Health, last use, stale and duplicates of every connection the user sees: the list's columns
 * and filters, and the Overview's count.
 */
export const useConnectionFacts = (teamId: string) =>
  useQuery({
    queryKey: connectionKeys.facts(teamId),
    queryFn: () => apiFetch<ConnectionFactsJson[]>(teamId, "/api/dashboard/connections/facts"),
  });

const path = (connectionId: string, rest = "") =>
  `/api/dashboard/connections/${encodeURIComponent(connectionId)}${rest}`;

export const useConnectionPage = (teamId: string, connectionId: string) =>
  useQuery({
    queryKey: connectionKeys.page(teamId, connectionId),
    queryFn: () => apiFetch<ConnectionPageJson>(teamId, path(connectionId)),
  });

export const useConnectionSpend = (teamId: string, connectionId: string) =>
  useQuery({
    queryKey: connectionKeys.spend(teamId, connectionId),
    queryFn: () => apiFetch<ConnectionSpendJson>(teamId, path(connectionId, "/spend")),
  });

export const useConnectionErrors = (teamId: string, connectionId: string) =>
  useQuery({
    queryKey: connectionKeys.errors(teamId, connectionId),
    queryFn: () => apiFetch<ConnectionErrorsJson>(teamId, path(connectionId, "/errors")),
  });

/** *Check now*: the identity call, then every view of the connection's health reads again. */
export function useCheckConnection(teamId: string, connectionId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch<{ id: string; health: string; checked_at: number; error: string | null }>(
        teamId,
        path(connectionId, "/check"),
        { method: "POST" },
      ),
    onSettled: () => client.invalidateQueries({ queryKey: connectionKeys.all(teamId) }),
  });
}

export function useRenameConnection(teamId: string, connectionId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (displayName: string) =>
      apiFetch<ConnectionPageJson>(teamId, path(connectionId), {
        method: "PATCH",
        body: JSON.stringify({ display_name: displayName }),
      }),
    onSuccess: (page) => {
      client.setQueryData(connectionKeys.page(teamId, connectionId), page);
      return client.invalidateQueries({ queryKey: connectionKeys.all(teamId) });
    },
  });
}

/** What deleting these connections would deactivate; always fresh, since the dialog asks for consent on it. */
export const useDeletePreview = (teamId: string, connectionIds: string[]) =>
  useQuery({
    queryKey: connectionKeys.deletePreview(teamId, connectionIds),
    queryFn: () =>
      apiFetch<BulkDeletePreviewJson>(teamId, "/api/dashboard/connections/bulk-delete/preview", {
        method: "POST",
        body: JSON.stringify({ connection_ids: connectionIds }),
      }),
    enabled: connectionIds.length > 0,
    staleTime: 0,
    gcTime: 0,
  });

export function useDeleteConnections(teamId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (connectionIds: string[]) =>
      apiFetch<BulkDeleteResultJson>(teamId, "/api/dashboard/connections/bulk-delete", {
        method: "POST",
        body: JSON.stringify({ connection_ids: connectionIds }),
      }),
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
