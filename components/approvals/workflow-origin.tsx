"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { JsonView } from "@/components/logs/json-view";
import type { ApprovalDetail, ApprovalStatus } from "@/lib/queries/approvals";
import { workflowRunQuery } from "@/lib/queries/workflows";

/**
 * The workflow run a request waits in (CONTRACT §13): the workflow, its run, the node and, in a
 * loop, the item the write is for (`index` 0-based of `count`). Null for an agent's or an MCP
 * server's request.
 */
export type WorkflowOrigin = {
  id: string | null;
  name: string | null;
  run_id: string;
  node_id: string | null;
  item: { index: number; count: number | null; value: unknown } | null;
};

/** A request's workflow run, or null when no workflow filed it. */
export const workflowOf = (a: ApprovalDetail): WorkflowOrigin | null =>
  (a as ApprovalDetail & { workflow?: WorkflowOrigin | null }).workflow ?? null;

const term = "text-zinc-500 dark:text-zinc-400";
const link = "font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300";

/** "item 3 of 12" (1-based, as a person counts). */
export const itemWords = (item: NonNullable<WorkflowOrigin["item"]>) =>
  `item ${item.index + 1}${item.count !== null ? ` of ${item.count}` : ""}`;

/** The run's page: the workflow with the run's detail open. */
const runHref = (team: string, w: WorkflowOrigin) =>
  `/${team}/workflows/${encodeURIComponent(w.id ?? "")}?run=${encodeURIComponent(w.run_id)}`;

/**
 * Where a workflow's request comes from, for the person deciding it: "From workflow Pause
 * overspending campaigns · run · node Pause it · item 3 of 12", what the run does on each
 * answer, and the item's fields, so the write is judged with the row it is for.
 */
export function WorkflowOriginNote({
  team,
  origin: w,
  status,
}: {
  team: string;
  origin: WorkflowOrigin;
  status: ApprovalStatus;
}) {
  // The node's label is the run's: read from the run (the request names the node by id).
  const run = useQuery({ ...workflowRunQuery(team, w.run_id), enabled: w.id !== null });
  const step = run.data?.nodes.find((n) => n.node_id === w.node_id);
  const label = step?.label ?? w.node_id ?? "a node";
  const value = w.item?.value;
  const fields =
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? Object.entries(value as Record<string, unknown>)
      : null;
  return (
    <div
      data-testid="approval-workflow"
      className="rounded-lg border border-indigo-200 bg-indigo-50/60 p-3 text-zinc-900 dark:border-indigo-900/60 dark:bg-indigo-950/30 dark:text-zinc-100"
    >
      <p data-testid="approval-workflow-origin" className="wrap-anywhere">
        From workflow{" "}
        {w.id ? (
          <Link href={`/${team}/workflows/${encodeURIComponent(w.id)}`} className={link}>
            {w.name ?? w.id}
          </Link>
        ) : (
          <span className="font-medium">{w.name ?? "a deleted workflow"}</span>
        )}{" "}
        ·{" "}
        {w.id ? (
          <Link href={runHref(team, w)} className={link} aria-label={`Its run ${w.run_id}`}>
            run
          </Link>
        ) : (
          "run"
        )}{" "}
        · node <span className="font-medium">{label}</span>
        {w.item && <> · {itemWords(w.item)}</>}
      </p>
      <p className={`mt-1 text-xs ${term}`}>
        {status === "pending"
          ? "The run waits for this decision: approving runs this write and the run goes on; rejecting stops the run here, and nothing after it runs."
          : status === "rejected" || status === "expired" || status === "cancelled"
            ? "The run stopped here: nothing after this write ran."
            : status === "running"
              ? "The write is running; the run goes on after it."
              : status === "failed"
                ? "The write failed: the run treats it as a failed step."
                : "The write ran; the run went on."}
      </p>
      {w.item && (
        <div className="mt-2" data-testid="approval-workflow-item">
          <p className="text-xs font-semibold">The item this write is for</p>
          {fields ? (
            <dl className="mt-1 grid grid-cols-[minmax(0,8rem)_1fr] gap-x-3 gap-y-1 text-sm">
              {fields.map(([k, v]) => (
                <div key={k} className="contents">
                  <dt className={`break-all font-mono text-xs ${term}`}>{k}</dt>
                  <dd className="min-w-0 wrap-anywhere">
                    {v === null || typeof v !== "object" ? (
                      <span className="tabular-nums">{typeof v === "string" ? v : JSON.stringify(v)}</span>
                    ) : (
                      <span className="font-mono text-xs">
                        <JsonView value={v} />
                      </span>
                    )}
                  </dd>
                </div>
              ))}
            </dl>
          ) : (
            <div className="mt-1 font-mono text-xs">
              <JsonView value={value ?? null} />
            </div>
          )}
        </div>
      )}
    </div>
  );
}
