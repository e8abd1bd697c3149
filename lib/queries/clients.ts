"use client";

import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/queries/api-client";
import { connectionKeys } from "@/lib/queries/connections";
import { retryUnlessClientError } from "@/lib/queries/retry";
import type { ClientCheckResult, ClientDetail, ClientsPage } from "@/lib/schemas/clients";
import type { DailyUsage } from "@/lib/schemas/dashboard";
import type { LogJson } from "@/lib/schemas/logs";

/** The filters the Clients page keeps in the URL (the same names as its API's query). */
export const CLIENT_FILTER_KEYS = ["q", "health", "sort", "order"] as const;
export type ClientFilters = Partial<Record<(typeof CLIENT_FILTER_KEYS)[number], string>>;

const CLIENTS_PAGE_SIZE = 100;

const clientKeys = {
  all: (teamId: string) => [teamId, "clients"] as const,
  infinite: (teamId: string, filters: ClientFilters) => [teamId, "clients", "infinite", filters] as const,
  detail: (teamId: string, key: string) => [teamId, "clients", "detail", key] as const,
};

const clientPath = (key: string) => `/api/dashboard/clients/${encodeURIComponent(key)}`;

function clientsInfiniteOptions(teamId: string, filters: ClientFilters) {
  return infiniteQueryOptions({
    queryKey: clientKeys.infinite(teamId, filters),
    queryFn: ({ pageParam, signal }) => {
      const qs = new URLSearchParams({ ...filters, limit: String(CLIENTS_PAGE_SIZE) });
      if (pageParam) qs.set("cursor", pageParam);
      return apiFetch<ClientsPage>(teamId, `/api/dashboard/clients?${qs}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.has_more ? last.next_cursor : null),
    structuralSharing: false,
    retry: retryUnlessClientError,
  });
}

export const useInfiniteClients = (teamId: string, filters: ClientFilters) =>
  useInfiniteQuery(clientsInfiniteOptions(teamId, filters));

export type ClientPageData = ClientDetail & { usage: DailyUsage; recent_errors: LogJson[] };

export const useClient = (teamId: string, key: string) =>
  useQuery({
    queryKey: clientKeys.detail(teamId, key),
    queryFn: ({ signal }) => apiFetch<ClientPageData>(teamId, clientPath(key), { signal }),
    retry: retryUnlessClientError,
  });

/** *Check now* for every connection of a client; the client, the list and the connections refresh after. */
export function useCheckClient(teamId: string, key: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<ClientCheckResult>(teamId, `${clientPath(key)}/check`, { method: "POST" }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: clientKeys.all(teamId) });
      void client.invalidateQueries({ queryKey: connectionKeys.all(teamId) });
    },
  });
}

/** The CSV download's address: the team goes in the query, since a link sends no header. */
export const clientUsageCsvUrl = (teamId: string, key: string, from: number, to: number) =>
  `${clientPath(key)}/usage.csv?${new URLSearchParams({ from: String(from), to: String(to), team: teamId })}`;

/** A new auth link or connection changes a client's counts: its page and the list load again. */
export function useRefreshClients(teamId: string) {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: clientKeys.all(teamId) });
}
