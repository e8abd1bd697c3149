"use client";

import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/queries/api-client";
import { retryUnlessClientError } from "@/lib/queries/retry";
import type { ApprovalDetail } from "@/lib/approvals/approval-json";
import type { ApprovalStatusValue } from "@/lib/schemas/approval-statuses";

export type { ApprovalDetail };
export type ApprovalStatus = ApprovalStatusValue;

/** The filters the Approvals page keeps in the URL. No status means pending; `all` means every status. */
export const APPROVAL_FILTER_KEYS = ["status", "mcp_server_id", "operation_id"] as const;
export type ApprovalFilters = Partial<Record<(typeof APPROVAL_FILTER_KEYS)[number], string>>;
/** The URL parameter that opens a request's detail: the `approve_url` agents hand to people. */
export const APPROVAL_PARAM = "approval";

const APPROVALS_PAGE_SIZE = 50;
// New requests appear, and waiting ones expire, without a reload.
const APPROVALS_REFRESH_MS = 30_000;

type Page = { data: ApprovalDetail[]; next_cursor: string | null; pending: number };

const approvalKeys = {
  /** Every approvals query of the team (list, detail, the navigation's count): invalidated after a decision. */
  all: (teamId: string) => [teamId, "approvals"] as const,
  infinite: (teamId: string, filters: ApprovalFilters) => [teamId, "approvals", "infinite", filters] as const,
  detail: (teamId: string, id: string) => [teamId, "approvals", "detail", id] as const,
  pendingCount: (teamId: string) => [teamId, "approvals", "pending-count"] as const,
};

/** The API's status parameter for the page's filter value. */
const statusParam = (status: string | undefined): string | undefined =>
  status === "all" ? undefined : (status ?? "pending");

export function approvalsInfiniteOptions(teamId: string, filters: ApprovalFilters) {
  return infiniteQueryOptions({
    queryKey: approvalKeys.infinite(teamId, filters),
    queryFn: ({ pageParam, signal }) => {
      const qs = new URLSearchParams({ limit: String(APPROVALS_PAGE_SIZE) });
      const status = statusParam(filters.status);
      if (status) qs.set("status", status);
      if (filters.mcp_server_id) qs.set("mcp_server_id", filters.mcp_server_id);
      if (filters.operation_id) qs.set("operation_id", filters.operation_id);
      if (pageParam) qs.set("cursor", pageParam);
      return apiFetch<Page>(teamId, `/api/dashboard/approvals?${qs}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    refetchInterval: APPROVALS_REFRESH_MS,
    retry: retryUnlessClientError,
  });
}

export function approvalDetailOptions(teamId: string, id: string) {
  return queryOptions({
    queryKey: approvalKeys.detail(teamId, id),
    queryFn: ({ signal }) =>
      apiFetch<ApprovalDetail>(teamId, `/api/dashboard/approvals/${encodeURIComponent(id)}`, { signal }),
    staleTime: 0,
    retry: retryUnlessClientError,
    // A request being decided elsewhere (another member, the CLI) shows its new state: soon while
    // it waits, at once while it runs.
    refetchInterval: (query) =>
      query.state.data?.status === "running" ? 2_000 : query.state.data?.status === "pending" ? 15_000 : false,
  });
}

/** How many requests wait for a decision: the badge in the navigation. */
export const pendingApprovalsCountOptions = (teamId: string) =>
  queryOptions({
    queryKey: approvalKeys.pendingCount(teamId),
    queryFn: ({ signal }) =>
      apiFetch<Page>(teamId, "/api/dashboard/approvals?status=pending&limit=1", { signal }).then((p) => p.pending),
    refetchInterval: APPROVALS_REFRESH_MS,
    staleTime: 0,
    retry: retryUnlessClientError,
  });

export type Decision = "approve" | "reject";

/**
 * Approve (runs the write, answers once it ran) or reject, with an optional note. An approval sends
 * `seenBefore`, the fingerprint of the before-state the person was shown (the detail's
 * `current_fingerprint`): if the account changed since, the server runs nothing and answers 409
 * naming both states. The answer is the request after the decision; then the list, the detail and
 * the navigation's count refresh (after a 409 too, so the new state shows). A decided or expired
 * request is a 409 whose detail says what became of it.
 */
export function useDecideApproval(teamId: string, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ decision, note, seenBefore }: { decision: Decision; note: string; seenBefore?: string | null }) =>
      apiFetch<ApprovalDetail>(teamId, `/api/dashboard/approvals/${encodeURIComponent(id)}/${decision}`, {
        method: "POST",
        body: JSON.stringify({
          ...(note.trim() && { note: note.trim() }),
          ...(decision === "approve" && seenBefore && { seen_before: seenBefore }),
        }),
      }),
    onSuccess: (decided) => client.setQueryData(approvalKeys.detail(teamId, id), decided),
    onSettled: () => client.invalidateQueries({ queryKey: approvalKeys.all(teamId) }),
  });
}
