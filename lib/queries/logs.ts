"use client";

import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/queries/api-client";
import { retryUnlessClientError } from "@/lib/queries/retry";
import type { LogJson } from "@/lib/schemas/logs";
import { matchRanges, searchWords } from "@/lib/text/search-words";

/** The §4.10 filters the explorer keeps in the URL (the same names as the API's query). */
export const LOG_FILTER_KEYS = [
  "source_type",
  "status",
  "operation_id",
  "source_id",
  "source_run_id",
  "started_after",
  "started_before",
  "q",
] as const;
export type LogFilters = Partial<Record<(typeof LOG_FILTER_KEYS)[number], string>>;

const LOGS_PAGE_SIZE = 100;

type Page<T> = { data: T[]; has_more: boolean; next_cursor: string | null };

/** A row of the explorer: a log without its bodies, and with a search, where its body matched. */
export type LogRow = Omit<LogJson, "input" | "output"> & { match?: string | null };

const SNIPPET_BEFORE = 24;
const SNIPPET_CHARS = 140;

/**
 * The stretch of a log's output or input (as JSON text, the text the search read) around the
 * first word a search for `words` matched; null when the match was in its operation or source.
 */
function bodySnippet(log: LogJson, words: string[]): string | null {
  for (const body of [log.output, log.input]) {
    if (body === undefined || body === null) continue;
    const text = JSON.stringify(body);
    const first = matchRanges(text, words)[0];
    if (!first) continue;
    const start = Math.max(0, first[0] - SNIPPET_BEFORE);
    const end = Math.min(text.length, start + SNIPPET_CHARS);
    return `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`;
  }
  return null;
}

const logKeys = {
  all: (teamId: string) => [teamId, "logs"] as const,
  infinite: (teamId: string, filters: LogFilters) => [teamId, "logs", "infinite", filters] as const,
  detail: (teamId: string, id: string) => [teamId, "logs", "detail", id] as const,
};

function logsInfiniteOptions(teamId: string, filters: LogFilters) {
  return infiniteQueryOptions({
    queryKey: logKeys.infinite(teamId, filters),
    queryFn: ({ pageParam, signal }) => {
      const qs = new URLSearchParams({ ...filters, limit: String(LOGS_PAGE_SIZE) });
      if (pageParam) qs.set("cursor", pageParam);
      // The table shows neither input nor output, and the detail panel fetches the log whole:
      // holding them for every loaded row only fed the garbage collector while scrolling. A
      // search keeps the few words around its match.
      const words = filters.q ? searchWords(filters.q) : [];
      return apiFetch<Page<LogJson>>(teamId, `/v1/logs?${qs}`, { signal }).then((page) => ({
        ...page,
        data: page.data.map(({ input: _input, output: _output, ...row }, i): LogRow =>
          words.length ? { ...row, match: bodySnippet(page.data[i], words) } : row,
        ),
      }));
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.has_more ? last.next_cursor : null),
    // Pages only ever append: comparing every loaded row with its previous copy (structural
    // sharing) cost more on each new page the longer the list grew.
    structuralSharing: false,
    retry: retryUnlessClientError,
  });
}

export const useInfiniteLogs = (teamId: string, filters: LogFilters) =>
  useInfiniteQuery(logsInfiniteOptions(teamId, filters));

function logDetailOptions(teamId: string, id: string) {
  return queryOptions({
    queryKey: logKeys.detail(teamId, id),
    queryFn: ({ signal }) => apiFetch<LogJson>(teamId, `/v1/logs/${encodeURIComponent(id)}`, { signal }),
  });
}

export const useLog = (teamId: string, id: string | null) =>
  useQuery({ ...logDetailOptions(teamId, id ?? ""), enabled: !!id });
