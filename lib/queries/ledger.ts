"use client";

import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/queries/api-client";
import { retryUnlessClientError } from "@/lib/queries/retry";
import type { CreditLogJson } from "@/lib/schemas/credits";

/** The §4.9 filters the ledger keeps in the URL (the same names as the API's query). */
export const LEDGER_FILTER_KEYS = ["service_type", "service_id", "user_id", "created_after", "created_before"] as const;
export type LedgerFilters = Partial<Record<(typeof LEDGER_FILTER_KEYS)[number], string>>;

// Ledger rows are small (a full page of 1000 is ~265 KB); 200 keeps the first paint quick.
const LEDGER_PAGE_SIZE = 200;

type Page<T> = { data: T[]; has_more: boolean; next_cursor: string | null };

const ledgerKeys = {
  all: (teamId: string) => [teamId, "ledger"] as const,
  infinite: (teamId: string, filters: LedgerFilters) => [teamId, "ledger", "infinite", filters] as const,
};

function ledgerInfiniteOptions(teamId: string, filters: LedgerFilters) {
  return infiniteQueryOptions({
    queryKey: ledgerKeys.infinite(teamId, filters),
    queryFn: ({ pageParam, signal }) => {
      const qs = new URLSearchParams({ ...filters, limit: String(LEDGER_PAGE_SIZE) });
      if (pageParam) qs.set("cursor", pageParam);
      return apiFetch<Page<CreditLogJson>>(teamId, `/v1/credits/logs?${qs}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.has_more ? last.next_cursor : null),
    // Pages only ever append: comparing every loaded row with its previous copy (structural
    // sharing) cost more on each new page the longer the list grew.
    structuralSharing: false,
    retry: retryUnlessClientError,
  });
}

export const useInfiniteLedger = (teamId: string, filters: LedgerFilters) =>
  useInfiniteQuery(ledgerInfiniteOptions(teamId, filters));

/** The export's URL: a plain link cannot send the team header, so the team rides in the query. */
export function ledgerCsvUrl(teamId: string, filters: LedgerFilters) {
  return `/api/dashboard/ledger.csv?${new URLSearchParams({ ...filters, team: teamId })}`;
}
