"use client";

import Link from "next/link";
import { useEffect, useMemo, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { DataTable } from "@/components/data-table/data-table";
import { EmptyState } from "@/components/data-table/empty-state";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ErrorNote } from "@/components/ui/error-note";
import { KindBadge } from "@/components/operations/kind-badge";
import { LocalTime } from "@/components/time/local-time";
import { ActiveBadge, WritesBadge } from "@/components/workflows/badges";
import { useDocumentTitle } from "@/components/ui/use-document-title";
import { useCatalogue } from "@/components/workflows/catalogue";
import { When } from "@/components/workflows/relative-time";
import { RebindDialog } from "@/components/workflows/rebind-dialog";
import { RunDetailPanel } from "@/components/workflows/run-detail-panel";
import { RUN_COLUMNS_TEMPLATE, runColumns } from "@/components/workflows/run-columns";
import { describeSchedule } from "@/components/workflows/schedule-words";
import { useDetailParam } from "@/components/ui/use-detail-param";
import { WriteNote, type WriteNode } from "@/components/workflows/write-note";
import { NodeControlsSummary } from "@/components/workflows/node-controls-summary";
import { nodeFields } from "@/components/workflows/editor-model";
import { ApiRequestError } from "@/lib/queries/api-client";
import { WebhookUrlDialog } from "@/components/workflows/webhook-url-dialog";
import { BulkReplayDialog } from "@/components/workflows/bulk-replay-dialog";
import { VersionHistory } from "@/components/workflows/version-history";
import {
  stateOf,
  useRotateWebhookUrl,
  type TriggeredRun,
  type TriggeredWorkflowDetail,
} from "@/components/workflows/trigger-api";
import {
  isUnderway,
  RUN_PARAM,
  useDeleteWorkflow,
  useRunWorkflow,
  useSetWorkflowActive,
  workflowQuery,
  workflowRunsOptions,
} from "@/lib/queries/workflows";

const term = "text-zinc-500 dark:text-zinc-400";
const link = "font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300";

/**
 * The workflow page: what it is and when it runs, its actions, its nodes (with connection problems
 * up front) and its run history.
 */
export function WorkflowView({
  teamId,
  workflowId,
  isOwner,
}: {
  teamId: string;
  workflowId: string;
  isOwner: boolean;
}) {
  const query = useQuery(workflowQuery(teamId, workflowId));
  if (query.isPending) {
    return (
      <div className="space-y-4" aria-hidden="true">
        <div className="h-8 w-64 animate-pulse rounded bg-zinc-200 dark:bg-zinc-800" />
        <div className="card h-40 animate-pulse" />
        <div className="card h-64 animate-pulse" />
      </div>
    );
  }
  if (query.error || !query.data) {
    const missing = query.error instanceof ApiRequestError && query.error.status === 404;
    return (
      <div className="space-y-3">
        <h1 className="text-2xl font-semibold tracking-tight">{missing ? "No such workflow" : "Workflow"}</h1>
        <ErrorNote
          error={query.error}
          title={missing ? "It was deleted, or it belongs to another team." : "This workflow could not be loaded."}
        />
        <Link href={`/${teamId}/workflows`} className="btn-secondary">
          All workflows
        </Link>
      </div>
    );
  }
  return <Loaded teamId={teamId} workflow={query.data as TriggeredWorkflowDetail} isOwner={isOwner} />;
}

function Loaded({
  teamId,
  workflow: w,
  isOwner,
}: {
  teamId: string;
  workflow: TriggeredWorkflowDetail;
  isOwner: boolean;
}) {
  const router = useRouter();
  const { index: catalogue } = useCatalogue(teamId);
  const runNow = useRunWorkflow(teamId, w.id);
  const setActive = useSetWorkflowActive(teamId, w.id);
  const remove = useDeleteWorkflow(teamId, w.id);
  const [deleting, setDeleting] = useState(false);
  const [rebinding, setRebinding] = useState(false);
  const rotate = useRotateWebhookUrl(teamId, w.id);
  const [rotating, setRotating] = useState(false);
  const [newUrl, setNewUrl] = useState<string | null>(null);
  const [replaying, setReplaying] = useState(false);
  useDocumentTitle(`${w.name} · Workflows · Patchbay`);

  const runs = useInfiniteQuery(workflowRunsOptions(teamId, w.id));
  // The server's runs carry §13's fields (trigger data, version, replay links) beyond the older type.
  const rows = useMemo(() => (runs.data?.pages.flatMap((p) => p.runs) ?? []) as unknown as TriggeredRun[], [runs.data]);
  const { openId, open, close, returnFocus } = useDetailParam(RUN_PARAM, rows);

  const writes: WriteNode[] = w.nodes.flatMap((n) =>
    n.operation?.kind === "write"
      ? [
          {
            id: n.id,
            label: n.label,
            operation: n.operation.id,
            connection: n.connection
              ? (n.connection.display_name ?? n.connection.external_id ?? n.connection.id)
              : (n.connection_id ?? null),
            approval: n.approval === "required",
          },
        ]
      : [],
  );
  // A write that asks for approval runs on a person's yes: only the others need an owner's activation.
  const unapproved = writes.filter((x) => !x.approval);
  const problems = w.nodes.filter((n) => n.connection_problem);
  const mayActivate = isOwner || unapproved.length === 0;
  const mayRunNow = w.active || isOwner || unapproved.length === 0;
  const fieldsOf = useMemo(() => {
    const shapes = w.nodes.map((n) => ({ ...n, forEach: n.for_each ?? null }));
    return shapes.map((_, i) => nodeFields(shapes, i, (id) => catalogue?.byId.get(id)));
  }, [w.nodes, catalogue]);
  const underway = rows.some((r) => isUnderway(r.status));
  // Run now queues the run: it has not started until a worker takes it, so it never reads "started".
  const ranNow = runNow.data ? rows.find((r) => r.id === runNow.data.run_id) : undefined;
  // A Run now pressed while the history's first load is still under way is not in that answer
  // (an invalidation joins a first fetch rather than restarting it): look again once it settles.
  const missingRun = runNow.data && !ranNow && !runs.isFetching ? runNow.data.run_id : null;
  const { refetch: refetchRuns } = runs;
  const lookedAgain = useRef<string | null>(null);
  useEffect(() => {
    if (!missingRun || lookedAgain.current === missingRun) return;
    lookedAgain.current = missingRun;
    void refetchRuns();
  }, [missingRun, refetchRuns]);
  const runNowState =
    !ranNow || ranNow.status === "queued"
      ? "is queued: it starts in a moment"
      : isUnderway(ranNow.status)
        ? "is running"
        : ranNow.status === "waiting_approval"
          ? "waits for an approval"
          : "has ended";
  const hasConnections = w.nodes.some((n) => n.connection_id);
  const actionError = runNow.error ?? setActive.error ?? remove.error ?? rotate.error;
  const webhook = w.trigger?.type === "webhook";
  const events = w.trigger?.type === "event" ? (w.trigger.events ?? []) : [];

  return (
    <div className="space-y-6">
      <div className="space-y-3">
        <Link
          href={`/${teamId}/workflows`}
          className="text-sm font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
        >
          ← Workflows
        </Link>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <div className="flex flex-wrap items-center gap-2">
              <h1 className="wrap-anywhere text-2xl font-semibold tracking-tight">{w.name}</h1>
              <ActiveBadge state={stateOf(w)} />
              {writes.length > 0 && <WritesBadge approved={unapproved.length === 0} />}
            </div>
            <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400" data-testid="workflow-schedule">
              {w.schedule ? (
                <>
                  {describeSchedule(w.schedule)} ({w.timezone ?? "UTC"}) ·{" "}
                  <code className="font-mono text-xs">{w.schedule}</code>
                </>
              ) : webhook ? (
                <>Webhook: a POST to its URL starts a run{w.active ? "" : " (not while inactive)"}</>
              ) : events.length ? (
                <>
                  Events:{" "}
                  {events.map((e, i) => (
                    <span key={e}>
                      {i > 0 && ", "}
                      <code className="font-mono text-xs">{e}</code>
                    </span>
                  ))}
                  {w.active ? "" : " (not while inactive)"}
                </>
              ) : (
                "Manual: runs only when started"
              )}
              {typeof w.version === "number" && <span data-testid="workflow-version"> · version {w.version}</span>}
              {w.next_run_at !== null ? (
                <>
                  {" "}
                  · next run <When ms={w.next_run_at * 1000} />
                </>
              ) : w.schedule && !w.active ? (
                " · no run while inactive"
              ) : null}
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className="btn-primary"
              onClick={() => runNow.mutate()}
              disabled={!mayRunNow || problems.length > 0 || runNow.isPending}
              aria-describedby={!mayRunNow ? "run-now-locked" : problems.length > 0 ? "run-now-blocked" : undefined}
            >
              {runNow.isPending ? "Starting…" : "Run now"}
            </button>
            <Link href={`/${teamId}/workflows/${w.id}/edit`} className="btn-secondary">
              Edit
            </Link>
            {/* A manual workflow that only reads has nothing to deactivate: anyone may start it. */}
            {(w.schedule || webhook || events.length > 0 || writes.length > 0 || !w.active) && (
              <button
                type="button"
                className="btn-secondary"
                onClick={() => setActive.mutate(!w.active)}
                disabled={setActive.isPending || (!w.active && !mayActivate)}
                aria-describedby={!w.active && !mayActivate ? "activate-locked" : undefined}
              >
                {setActive.isPending ? "Saving…" : w.active ? "Deactivate" : "Activate"}
              </button>
            )}
            {hasConnections && (
              <button type="button" className="btn-secondary" onClick={() => setRebinding(true)}>
                Rebind
              </button>
            )}
            {webhook && (
              <button type="button" className="btn-secondary" onClick={() => setRotating(true)}>
                Rotate URL
              </button>
            )}
            <button
              type="button"
              className="btn-secondary text-rose-700 dark:text-rose-300"
              onClick={() => setDeleting(true)}
            >
              Delete
            </button>
          </div>
        </div>
        <div aria-live="polite" className="space-y-2 text-sm">
          {runNow.isSuccess && !runNow.isPending && (
            <p data-testid="run-started" className="text-zinc-700 dark:text-zinc-300">
              Run <span className="font-mono text-xs">{runNow.data.run_id}</span> {runNowState}
              {underway ? "; the history below follows it." : ". It is in the history below."}
            </p>
          )}
          {problems.length > 0 && mayRunNow && (
            <p id="run-now-blocked" className="text-zinc-600 dark:text-zinc-400">
              Run now waits until the connection problems below are fixed: a run would fail at once.
            </p>
          )}
          {!w.active && !mayActivate && (
            <p id="activate-locked" className="text-zinc-600 dark:text-zinc-400">
              Only a team owner can activate a workflow with write nodes
              {!mayRunNow && <span id="run-now-locked">, or run it by hand while it is inactive</span>}. A workflow
              whose every write asks for approval first is any member&apos;s to activate and run.
            </p>
          )}
          {actionError && (
            <ErrorNote
              error={actionError}
              title={
                runNow.error
                  ? "Not started"
                  : remove.error
                    ? "Not deleted"
                    : rotate.error
                      ? "The URL was not rotated"
                      : "Not changed"
              }
            />
          )}
        </div>
        {!w.active && w.deactivated_reason && (
          <div
            role="note"
            className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-100"
            data-testid="deactivated-reason"
          >
            <p className="font-semibold">Why it is inactive</p>
            <p className="mt-0.5 wrap-anywhere">{w.deactivated_reason}</p>
          </div>
        )}
        {problems.length > 0 && (
          <div
            role="alert"
            data-testid="connection-problems"
            className="rounded-lg border border-rose-200 bg-rose-50 p-3 text-sm text-rose-900 dark:border-rose-900/60 dark:bg-rose-950/40 dark:text-rose-200"
          >
            <p className="font-semibold">
              {problems.length === 1
                ? "A node's connection has a problem"
                : `${problems.length} nodes' connections have a problem`}
              : {problems.length === 1 ? "it fails" : "they fail"} until it is fixed.
            </p>
            <ul className="mt-1 list-disc space-y-0.5 pl-5">
              {problems.map((n) => (
                <li key={n.id} className="wrap-anywhere">
                  <span className="font-medium">{n.label}</span> (<span className="font-mono text-xs">{n.id}</span>):{" "}
                  {n.connection_problem}
                </li>
              ))}
            </ul>
            <div className="mt-2 flex flex-wrap gap-2">
              {problems.some((n) => n.connection_id) && (
                <button type="button" className="btn-secondary px-3 py-1.5" onClick={() => setRebinding(true)}>
                  Rebind to another connection
                </button>
              )}
              {problems.some((n) => !n.connection_id) && (
                <Link href={`/${teamId}/workflows/${w.id}/edit`} className="btn-secondary px-3 py-1.5">
                  Choose a connection in the editor
                </Link>
              )}
              <Link href={`/${teamId}/connections`} className="btn-secondary px-3 py-1.5">
                Connections
              </Link>
            </div>
          </div>
        )}
      </div>

      <section aria-labelledby="workflow-nodes-heading" className="card p-4 sm:p-5">
        <h2 id="workflow-nodes-heading" className="text-base font-semibold">
          Nodes
        </h2>
        <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">
          They run in this order; a node that fails ends the run unless it is set to continue.
        </p>
        <ol className="divide-y divide-zinc-100 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
          {w.nodes.map((n, i) => (
            <li
              key={n.id}
              className="grid grid-cols-1 gap-x-4 gap-y-1 px-3 py-2.5 text-sm md:grid-cols-[minmax(0,1.3fr)_minmax(0,1fr)_minmax(0,1.2fr)]"
              data-testid="workflow-node"
            >
              <div className="min-w-0">
                <p className="font-medium">
                  <span className={term}>{i + 1}.</span> {n.label}
                </p>
                <p className={`break-all font-mono text-xs ${term}`}>{n.id}</p>
                {fieldsOf[i] && <NodeControlsSummary node={n} fields={fieldsOf[i]} />}
              </div>
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="truncate">{n.operation?.title ?? "Unknown operation"}</span>
                  {n.operation && <KindBadge kind={n.operation.kind} requiresApproval={false} />}
                </p>
                <p className={`break-all font-mono text-xs ${term}`}>{n.operation_id}</p>
              </div>
              <div className="min-w-0">
                {!n.connection_id ? (
                  n.connection_problem ? (
                    <p
                      className="text-xs font-medium text-rose-700 dark:text-rose-300"
                      data-testid="node-connection-problem"
                    >
                      <span aria-hidden="true">⚠ </span>No connection chosen: edit the node
                    </p>
                  ) : (
                    <p className={term}>
                      {n.operation && n.operation.types.length === 0 ? "Built-in: no connection" : "No connection"}
                    </p>
                  )
                ) : (
                  <>
                    <p className="wrap-anywhere">
                      {n.connection ? (
                        (n.connection.display_name ?? n.connection.external_id ?? n.connection.id)
                      ) : (
                        <span className="font-mono text-xs">{n.connection_id}</span>
                      )}
                    </p>
                    {n.connection_problem ? (
                      <p
                        className="text-xs font-medium text-rose-700 dark:text-rose-300"
                        data-testid="node-connection-problem"
                      >
                        <span aria-hidden="true">⚠ </span>
                        {n.connection_problem.startsWith("deleted")
                          ? "Deleted: rebind it"
                          : n.connection_problem.split(":")[0]}
                      </p>
                    ) : (
                      n.connection && (
                        <p className={`text-xs ${term}`}>
                          {catalogue?.typeName(n.connection.type) ?? n.connection.type}
                        </p>
                      )
                    )}
                  </>
                )}
              </div>
            </li>
          ))}
        </ol>
        {writes.length > 0 && (
          <div className="mt-3">
            <WriteNote writes={writes} isOwner={isOwner} />
          </div>
        )}
        <p className={`mt-3 text-xs ${term}`}>
          Created <LocalTime seconds={Date.parse(w.created_at) / 1000} /> · changed{" "}
          <LocalTime seconds={Date.parse(w.updated_at) / 1000} />
        </p>
      </section>

      <section aria-labelledby="workflow-runs-heading" className="space-y-3">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <h2 id="workflow-runs-heading" className="text-base font-semibold">
              Run history
            </h2>
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              Newest first. Select a run for each node&apos;s input, output and errors.
            </p>
          </div>
          <button type="button" className="btn-secondary" onClick={() => setReplaying(true)}>
            Replay failed runs…
          </button>
        </div>
        <DataTable<TriggeredRun>
          label="Runs"
          data={rows}
          columns={runColumns}
          template={RUN_COLUMNS_TEMPLATE}
          getRowId={(r) => r.id}
          isLoading={runs.isPending}
          error={runs.error}
          refetch={runs.refetch}
          hasNextPage={runs.hasNextPage}
          isFetchingNextPage={runs.isFetchingNextPage}
          fetchNextPage={runs.fetchNextPage}
          onRowClick={open}
          isSelected={(r) => r.id === openId}
          focusRowId={returnFocus}
          heightClass="max-h-[32rem] min-h-[240px]"
          empty={
            <EmptyState title="No runs yet">
              <p>
                {w.schedule && w.active ? "The schedule runs it next " : "It runs when someone starts it. "}
                {w.schedule && w.active && w.next_run_at !== null ? (
                  <>
                    <LocalTime seconds={w.next_run_at} />.{" "}
                  </>
                ) : null}
                Press <strong className="font-semibold">Run now</strong> to try it: each run&apos;s nodes and their
                outputs show here, and in{" "}
                <Link href={`/${teamId}/logs?source_id=${w.id}`} className={link}>
                  Logs
                </Link>
                .
              </p>
            </EmptyState>
          }
        />
      </section>

      <VersionHistory teamId={teamId} workflow={w} />

      {openId && (
        <RunDetailPanel key={openId} team={teamId} runId={openId} onClose={close} onOpenRun={(id) => open({ id })} />
      )}
      <BulkReplayDialog teamId={teamId} workflowId={w.id} open={replaying} onClose={() => setReplaying(false)} />
      <ConfirmDialog
        open={rotating}
        title="Rotate the webhook URL?"
        confirmLabel="Rotate URL"
        pending={rotate.isPending}
        onCancel={() => setRotating(false)}
        onConfirm={() =>
          rotate.mutate(undefined, {
            onSuccess: (r) => setNewUrl(r.webhook_url),
            onSettled: () => setRotating(false),
          })
        }
      >
        <p>
          A new URL replaces the current one, which answers 404 at once: whatever posts to it must be given the new one.
          The new URL is shown once.
        </p>
      </ConfirmDialog>
      <WebhookUrlDialog url={newUrl} title="The new webhook URL" onClose={() => setNewUrl(null)} />
      <RebindDialog
        teamId={teamId}
        workflow={w}
        catalogue={catalogue}
        open={rebinding}
        onClose={() => setRebinding(false)}
      />
      <ConfirmDialog
        open={deleting}
        title={`Delete “${w.name}”?`}
        confirmLabel="Delete workflow"
        pending={remove.isPending}
        onCancel={() => setDeleting(false)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => router.push(`/${teamId}/workflows`),
            onSettled: () => setDeleting(false),
          })
        }
      >
        <p>
          It stops running, and its run history is deleted with it. The logs and ledger entries of its past runs stay.
        </p>
      </ConfirmDialog>
    </div>
  );
}
