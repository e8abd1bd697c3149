"use client";

import Link from "next/link";
import { useCallback, useMemo } from "react";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { DataTable } from "@/components/data-table/data-table";
import { EmptyState } from "@/components/data-table/empty-state";
import { FilterSelect, FilterText } from "@/components/data-table/filter-controls";
import { useUrlFilters } from "@/components/data-table/use-url-filters";
import { useConnectionTypes } from "@/lib/queries/connections";
import { mcpServersQuery } from "@/lib/queries/settings";
import { APPROVAL_COLUMNS_TEMPLATE, approvalColumns } from "@/components/approvals/columns";
import { ApprovalDetailPanel } from "@/components/approvals/approval-detail-panel";
import { statusLabel } from "@/components/approvals/approval-status-badge";
import { useDetailParam } from "@/components/ui/use-detail-param";
import {
  APPROVAL_FILTER_KEYS,
  APPROVAL_PARAM,
  approvalsInfiniteOptions,
  type ApprovalDetail,
  type ApprovalStatus,
} from "@/lib/queries/approvals";
import { APPROVAL_STATUS_VALUES } from "@/lib/schemas/approval-statuses";
import { plural } from "@/lib/text/plural";

// The status filter: no value is the default (pending); `all` shows every status.
const STATUS_OPTIONS = ["all", ...APPROVAL_STATUS_VALUES.filter((s) => s !== "pending")] as const;

/**
 * The approval requests of the team: filters in the URL, newest first and paged as the list is
 * scrolled, and a request's detail opened from a row or straight from the URL (?approval=…, the
 * approve_url an agent hands to a person).
 */
export function ApprovalsExplorer({ teamId }: { teamId: string }) {
  const { filters, setFilters, setFilter } = useUrlFilters(APPROVAL_FILTER_KEYS);
  const query = useInfiniteQuery(approvalsInfiniteOptions(teamId, filters));
  const approvals = useMemo(() => query.data?.pages.flatMap((p) => p.data) ?? [], [query.data]);
  const pending = query.data?.pages[0]?.pending;
  const types = useConnectionTypes(teamId);
  const servers = useQuery(mcpServersQuery(teamId));
  const typeName = useCallback((type: string) => types.data?.find((t) => t.type === type)?.name ?? type, [types.data]);
  const columns = useMemo(() => approvalColumns(typeName), [typeName]);
  const serverOptions = useMemo(() => {
    const list = (servers.data?.data ?? []).map((s) => ({ id: s.id, name: s.name }));
    // A filter on a server deleted since (its requests keep its name) still shows as chosen.
    if (filters.mcp_server_id && !list.some((s) => s.id === filters.mcp_server_id))
      list.push({ id: filters.mcp_server_id, name: filters.mcp_server_id });
    return list;
  }, [servers.data, filters.mcp_server_id]);

  const { openId, open, close, returnFocus } = useDetailParam(APPROVAL_PARAM, approvals);
  const defaultView = Object.keys(filters).length === 0;
  const filtered = Boolean(
    filters.mcp_server_id || filters.operation_id || (filters.status && filters.status !== "all"),
  );

  return (
    <div className="space-y-4">
      <div className="card grid grid-cols-1 gap-3 p-4 sm:grid-cols-3">
        <FilterSelect
          label="Status"
          value={filters.status === "pending" ? undefined : filters.status}
          options={STATUS_OPTIONS}
          optionLabel={(s) => (s === "all" ? "All statuses" : statusLabel(s as ApprovalStatus))}
          anyLabel="Pending"
          onChange={(v) => setFilter("status", v)}
        />
        <FilterSelect
          label="MCP server"
          value={filters.mcp_server_id}
          options={serverOptions.map((s) => s.id)}
          optionLabel={(id) => serverOptions.find((s) => s.id === id)?.name ?? id}
          anyLabel="All servers"
          onChange={(v) => setFilter("mcp_server_id", v)}
        />
        <FilterText
          label="Operation ID"
          value={filters.operation_id}
          placeholder="sandbox.set_note"
          onChange={(v) => setFilter("operation_id", v)}
        />
      </div>
      <div className="flex min-h-9 flex-wrap items-center justify-between gap-2 text-sm text-zinc-600 dark:text-zinc-400">
        <p data-testid="pending-approvals" aria-live="polite">
          {pending === undefined
            ? ""
            : pending === 0
              ? "Nothing waits for a decision."
              : `${plural(pending, "request waits", "requests wait")} for a decision.`}
        </p>
        {!defaultView && (
          <button type="button" className="btn-secondary px-3 py-1.5" onClick={() => setFilters({})}>
            Show pending requests
          </button>
        )}
      </div>
      <DataTable<ApprovalDetail>
        key={JSON.stringify(filters)}
        label="Approval requests"
        data={approvals}
        columns={columns}
        template={APPROVAL_COLUMNS_TEMPLATE}
        getRowId={(a) => a.id}
        isLoading={query.isPending}
        error={query.error}
        refetch={query.refetch}
        hasNextPage={query.hasNextPage}
        isFetchingNextPage={query.isFetchingNextPage}
        fetchNextPage={query.fetchNextPage}
        onRowClick={open}
        isSelected={(a) => a.id === openId}
        focusRowId={returnFocus}
        empty={
          filtered ? (
            <EmptyState title="No approval requests match these filters">
              <p>Choose another status or server, or show the pending requests.</p>
            </EmptyState>
          ) : (
            <EmptyState title={defaultView ? "No approvals waiting" : "No approval requests yet"}>
              <p>
                When an agent asks to change something at a provider, the request waits here until a member of the team
                approves or rejects it. Requests come from the{" "}
                <Link
                  href={`/${teamId}/agent`}
                  className="font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300"
                >
                  Agent
                </Link>{" "}
                (every write it asks for), and from apps on an MCP server whose write policy is “approval” (each
                server&apos;s policy is in{" "}
                <Link
                  href={`/${teamId}/settings/mcp-servers`}
                  className="font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300"
                >
                  Settings → MCP servers
                </Link>
                ), and from workflow steps that ask for approval before they write.
              </p>
            </EmptyState>
          )
        }
      />
      {openId && (
        <ApprovalDetailPanel key={openId} team={teamId} approvalId={openId} typeName={typeName} onClose={close} />
      )}
    </div>
  );
}
