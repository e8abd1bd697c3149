"use client";

import Link from "next/link";
import { stateOf } from "@/components/workflows/trigger-api";
import { useMemo } from "react";
import { useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { DataTable } from "@/components/data-table/data-table";
import { EmptyState } from "@/components/data-table/empty-state";
import { WORKFLOW_COLUMNS_TEMPLATE, workflowColumns } from "@/components/workflows/columns";
import { workflowsQuery, type WorkflowListItem } from "@/lib/queries/workflows";
import { WORKFLOW_TEMPLATES } from "@/lib/workflows/workflow-templates";
import { plural } from "@/lib/text/plural";
import { WORKFLOW_STATES } from "@/lib/workflows/workflow-state";

const link = "font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300";

/** The team's workflows: one row each, opened on its own page. */
export function WorkflowsExplorer({ teamId }: { teamId: string }) {
  const router = useRouter();
  const query = useQuery(workflowsQuery(teamId));
  const workflows = useMemo(() => query.data ?? [], [query.data]);
  const columns = useMemo(() => workflowColumns(teamId), [teamId]);
  // The same words as the rows' badges: "3 active · 2 manual · 1 inactive".
  const byState = WORKFLOW_STATES.map((state) => ({
    state,
    n: workflows.filter((w) => stateOf(w) === state).length,
  }))
    .filter((s) => s.n > 0)
    .map((s) => `${s.n.toLocaleString("en")} ${s.state}`);
  const problems = workflows.filter((w) => w.connection_problems.length > 0).length;

  return (
    <div className="space-y-4">
      <div className="flex min-h-9 flex-wrap items-center justify-between gap-2 text-sm text-zinc-600 dark:text-zinc-400">
        <p data-testid="workflows-count" aria-live="polite">
          {query.isPending ? "Loading the workflows…" : [plural(workflows.length, "workflow"), ...byState].join(" · ")}
        </p>
        {problems > 0 && (
          <p className="font-medium text-amber-800 dark:text-amber-200">
            <span aria-hidden="true">⚠ </span>
            {plural(problems, "workflow has", "workflows have")} a connection problem: its nodes fail until it is fixed.
          </p>
        )}
      </div>
      <DataTable<WorkflowListItem>
        label="Workflows"
        data={workflows}
        columns={columns}
        template={WORKFLOW_COLUMNS_TEMPLATE}
        getRowId={(w) => w.id}
        isLoading={query.isPending}
        error={query.error}
        refetch={query.refetch}
        onRowClick={(w) => router.push(`/${teamId}/workflows/${w.id}`)}
        heightClass="min-h-[320px]"
        fillWindow
        empty={
          <EmptyState title="No workflows yet">
            <p>
              A workflow runs operations one after another, on a schedule or when you start it: read a report, format
              it, post it to Slack. Each node can use the output of the nodes before it, and every run is logged and
              charged like any operation.
            </p>
            <p className="mt-3">Start from a ready template:</p>
            <ul className="mt-1 space-y-1">
              {WORKFLOW_TEMPLATES.map((t) => (
                <li key={t.id}>
                  <Link href={`/${teamId}/workflows/new?template=${t.id}`} className={link}>
                    {t.name}
                  </Link>
                </li>
              ))}
            </ul>
            <p className="mt-3">
              or{" "}
              <Link href={`/${teamId}/workflows/new`} className={link}>
                build one node by node
              </Link>
              .
            </p>
          </EmptyState>
        }
      />
    </div>
  );
}
