"use client";

import Link from "next/link";
import { useEffect, useId, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { usePanelKeyboard } from "@/components/ui/use-panel-keyboard";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { Dialog } from "@/components/ui/dialog";
import { ErrorNote } from "@/components/ui/error-note";
import { JsonView } from "@/components/logs/json-view";
import { LocalTime } from "@/components/time/local-time";
import { LiveCountdown } from "@/components/auth-links/live-countdown";
import { ApprovalStatusBadge } from "@/components/approvals/approval-status-badge";
import { requestedVia } from "@/components/approvals/requested-via";
import { BeforeChanged } from "@/components/approvals/before-changed";
import { WorkflowOriginNote, workflowOf } from "@/components/approvals/workflow-origin";
import {
  approvalDetailOptions,
  useDecideApproval,
  type ApprovalDetail,
  type ApprovalStatus,
} from "@/lib/queries/approvals";

const term = "text-zinc-500 dark:text-zinc-400";
const NOTE_MAX = 1000;

/** Now, every second while `ticking`: a pending request turns expired on screen when its time is up. */
function useNow(ticking: boolean) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

/**
 * One approval request in full, as a person judges it: the summary, the operation and the
 * connection it would write to, the exact input, the state before, who asked through which MCP
 * server; while it waits, a note and Approve and run (after a confirmation) or Reject; once
 * decided, what became of it.
 */
export function ApprovalDetailPanel({
  team,
  approvalId,
  typeName,
  onClose,
}: {
  team: string;
  approvalId: string;
  typeName: (type: string) => string;
  onClose: () => void;
}) {
  const { data: approval, error, isPending } = useQuery(approvalDetailOptions(team, approvalId));
  const closeRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  usePanelKeyboard(panelRef, closeRef, onClose, approvalId);

  return (
    <aside
      ref={panelRef}
      role="dialog"
      aria-modal="true"
      aria-labelledby="approval-detail-title"
      className="fixed inset-y-0 right-0 z-40 flex w-full flex-col border-l border-zinc-200 bg-white shadow-2xl sm:w-[34rem] dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex items-center justify-between gap-3 border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
        <h2 id="approval-detail-title" className="min-w-0 truncate font-semibold">
          Approval request <span className={`font-mono text-sm ${term}`}>{approvalId}</span>
        </h2>
        <button
          ref={closeRef}
          type="button"
          onClick={onClose}
          className="btn-secondary shrink-0 px-3 py-1.5"
          aria-label="Close approval detail"
        >
          ✕
        </button>
      </div>
      <div className="flex-1 overflow-y-auto p-4 text-sm">
        {isPending ? (
          <div className="space-y-3" aria-hidden="true">
            {Array.from({ length: 6 }, (_, i) => (
              <div
                key={i}
                className="h-4 animate-pulse rounded bg-zinc-200 dark:bg-zinc-800"
                style={{ width: `${50 + i * 8}%` }}
              />
            ))}
          </div>
        ) : error ? (
          <ErrorNote error={error} title="This approval request could not be loaded." />
        ) : approval ? (
          <ApprovalBody team={team} approval={approval} typeName={typeName} />
        ) : null}
      </div>
    </aside>
  );
}

function ApprovalBody({
  team,
  approval: a,
  typeName,
}: {
  team: string;
  approval: ApprovalDetail;
  typeName: (type: string) => string;
}) {
  const now = useNow(a.status === "pending");
  // The server reads a pending request past its expiry as expired; so does the screen, to the second.
  const status: ApprovalStatus = a.status === "pending" && now >= a.expires_at * 1000 ? "expired" : a.status;
  const decide = useDecideApproval(team, a.id);
  const [note, setNote] = useState("");
  const [confirming, setConfirming] = useState(false);
  const outcomeRef = useRef<HTMLDivElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const noteId = useId();
  const connectionName = a.redacted
    ? `a private ${typeName(a.connection.type)} connection`
    : (a.connection.name ?? a.connection.id);

  // After a decision the buttons are gone: the focus goes to what happened (the outcome, or why it
  // could not be decided).
  useEffect(() => {
    if (decide.isSuccess) outcomeRef.current?.focus();
    if (decide.isError) errorRef.current?.focus();
  }, [decide.isSuccess, decide.isError]);

  // While it waits, the summary and state shown are the account's now (read again by the detail),
  // and an approval sends the fingerprint of that state: if it changed since, nothing runs (409)
  // and the detail, read again, shows the new one.
  const summary = a.current_summary ?? a.summary;
  const run = (decision: "approve" | "reject") =>
    decide.mutate({ decision, note, seenBefore: a.current_fingerprint }, { onSettled: () => setConfirming(false) });

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <ApprovalStatusBadge status={status} />
        {status === "pending" && (
          <span className="text-amber-800 dark:text-amber-200">
            <LiveCountdown expiresAt={a.expires_at * 1000} />
          </span>
        )}
      </div>
      <p
        data-testid="approval-summary"
        className="rounded-lg border border-zinc-200 bg-zinc-50 p-3 text-base font-medium text-zinc-900 dark:border-zinc-800 dark:bg-zinc-950 dark:text-zinc-100"
      >
        {summary}
      </p>
      {workflowOf(a) && <WorkflowOriginNote team={team} origin={workflowOf(a)!} status={status} />}
      {status === "pending" && <BeforeChanged approval={a} testId="approval-changed" />}

      {decide.isError && (
        <div ref={errorRef} tabIndex={-1} className="focus:outline-none">
          {lostRace(status) ? (
            // Someone else (another tab, another member) decided first: not an error of this click.
            <p
              data-testid="approval-already-decided"
              className="rounded-lg border border-zinc-200 bg-zinc-50 p-3 text-zinc-800 dark:border-zinc-800 dark:bg-zinc-950 dark:text-zinc-200"
            >
              {lostRace(status) === "approved"
                ? `Already approved by ${a.decided_by_email ?? "a team member"} — the write ran once.`
                : `Already rejected by ${a.decided_by_email ?? "a team member"} — nothing was written.`}
            </p>
          ) : (
            <ErrorNote error={decide.error} title="Not decided" />
          )}
        </div>
      )}

      {status !== "pending" && (
        <div ref={outcomeRef} tabIndex={-1} data-testid="approval-outcome" className="focus:outline-none">
          <Outcome approval={a} status={status} />
        </div>
      )}

      <dl className="grid grid-cols-[7.5rem_1fr] gap-x-3 gap-y-2">
        <dt className={term}>Operation</dt>
        <dd className="min-w-0">
          <Link
            href={`/${team}/operations?q=${encodeURIComponent(a.operation_id)}`}
            className="break-all font-mono text-xs text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
          >
            {a.operation_id}
          </Link>
          <span className={`font-mono text-xs ${term}`}> v{a.operation_version}</span>
        </dd>
        <dt className={term}>Connection</dt>
        <dd className="min-w-0 wrap-anywhere" data-testid="approval-connection">
          <span className="font-medium">{a.redacted ? "Private connection" : connectionName}</span>
          <span className={term}> · {typeName(a.connection.type)}</span>
          {a.connection.account && (
            <span className={term}>
              {" "}
              · account <span className="font-mono text-xs">{a.connection.account}</span>
            </span>
          )}
        </dd>
        <dt className={term}>Requested by</dt>
        <dd className="min-w-0 wrap-anywhere">
          {a.requested_by_email ?? (workflowOf(a) ? "the workflow's schedule or trigger" : "an unknown user")}
          <span className={term}> via {requestedVia(a)}</span>
        </dd>
        <dt className={term}>Requested</dt>
        <dd>
          <LocalTime seconds={a.created_at} />
        </dd>
        <dt className={term}>{status === "expired" ? "Expired" : "Expires"}</dt>
        <dd>
          <LocalTime seconds={a.expires_at} />
        </dd>
        {a.decided_at != null && (
          <>
            <dt className={term}>Decided</dt>
            <dd className="min-w-0 wrap-anywhere">
              {a.decided_by_email ?? "a team member"}, <LocalTime seconds={a.decided_at} />
            </dd>
          </>
        )}
        {a.log_id && (
          <>
            <dt className={term}>Log</dt>
            <dd className="min-w-0">
              <Link
                href={`/${team}/logs?log=${encodeURIComponent(a.log_id)}`}
                data-testid="approval-log-link"
                className="text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
              >
                The write&apos;s log
              </Link>
            </dd>
          </>
        )}
        {a.note && status !== "rejected" && (
          <>
            <dt className={term}>Note</dt>
            <dd className="min-w-0 whitespace-pre-line wrap-anywhere">{a.note}</dd>
          </>
        )}
      </dl>

      {a.redacted ? (
        <p
          data-testid="approval-private"
          className="rounded-lg border border-zinc-200 p-3 text-zinc-700 dark:border-zinc-800 dark:text-zinc-300"
        >
          This request writes to another member&apos;s private connection. Only that connection&apos;s owner can see
          what it would write and decide it.
        </p>
      ) : (
        <>
          <JsonSection title="Input" value={a.input} testId="approval-input" />
          <JsonSection
            title="State before"
            value={status === "pending" && a.current !== null ? a.current : a.before}
            empty="Not available: this operation does not read the current state."
            testId="approval-before"
          />
          {status === "pending" && a.changed && (
            <JsonSection title="State when filed" value={a.before} testId="approval-before-filed" />
          )}
          {status === "succeeded" && <JsonSection title="Result" value={a.result} testId="approval-result" />}
        </>
      )}

      {status === "pending" && !a.can_approve && a.can_reject && a.cannot_approve_reason && (
        <p
          data-testid="approval-self"
          className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-amber-900 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-200"
        >
          {a.cannot_approve_reason}
        </p>
      )}

      {status === "pending" && a.can_reject && (
        <form
          className="space-y-3 rounded-lg border border-zinc-200 p-3 dark:border-zinc-800"
          aria-label="Decision"
          onSubmit={(e) => {
            e.preventDefault();
            setConfirming(true);
          }}
        >
          <div>
            <label htmlFor={noteId} className="mb-1 block font-medium">
              Note (optional)
            </label>
            <textarea
              id={noteId}
              className="input min-h-16"
              maxLength={NOTE_MAX}
              value={note}
              onChange={(e) => setNote(e.target.value)}
              aria-describedby={`${noteId}-help`}
            />
            <p id={`${noteId}-help`} className={`mt-1 text-xs ${term}`}>
              Kept with the decision; the agent is told a rejection&apos;s note.
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <button type="submit" className="btn-primary" disabled={decide.isPending || !a.can_approve}>
              Approve and run
            </button>
            <button type="button" className="btn-secondary" disabled={decide.isPending} onClick={() => run("reject")}>
              {decide.isPending && decide.variables?.decision === "reject" ? "Rejecting…" : "Reject"}
            </button>
          </div>
        </form>
      )}

      <Dialog
        open={confirming && (status === "pending" || decide.isPending)}
        onClose={() => !decide.isPending && setConfirming(false)}
        title="Approve and run this write?"
        className="max-w-md"
      >
        <div className="space-y-3 text-sm text-zinc-700 dark:text-zinc-300">
          <p>
            Patchbay runs <span className="font-mono text-xs">{a.operation_id}</span> now on{" "}
            <strong className="font-semibold">{connectionName}</strong> ({typeName(a.connection.type)}
            {a.connection.account ? `, account ${a.connection.account}` : ""}):
          </p>
          <p
            data-testid="confirm-summary"
            className="rounded-lg bg-zinc-50 p-3 font-medium text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100"
          >
            {summary}
          </p>
          <BeforeChanged approval={a} testId="confirm-changed" />
          <p>It is a change at the provider; Patchbay cannot undo it.</p>
        </div>
        <div className="mt-5 flex justify-end gap-2">
          <button
            type="button"
            className="btn-secondary"
            onClick={() => setConfirming(false)}
            disabled={decide.isPending}
            data-autofocus
          >
            Cancel
          </button>
          <button type="button" className="btn-primary" onClick={() => run("approve")} disabled={decide.isPending}>
            {decide.isPending ? "Running the write…" : "Approve and run"}
          </button>
        </div>
      </Dialog>
    </div>
  );
}

function JsonSection({
  title,
  value,
  empty = "none",
  testId,
}: {
  title: string;
  value: unknown;
  empty?: string;
  testId?: string;
}) {
  return (
    <details open className="rounded-lg border border-zinc-200 dark:border-zinc-800">
      <summary className="cursor-pointer rounded-lg px-3 py-2 font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500">
        {title}
      </summary>
      <ScrollRegion
        label={title}
        testId={testId}
        className="border-t border-zinc-200 px-3 py-2 font-mono text-xs dark:border-zinc-800"
      >
        {value === undefined || value === null ? (
          <span className={`font-sans ${term}`}>{empty}</span>
        ) : (
          <JsonView value={value} />
        )}
      </ScrollRegion>
    </details>
  );
}

const BOX = {
  good: "border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-900/60 dark:bg-emerald-950/40 dark:text-emerald-200",
  bad: "border-rose-200 bg-rose-50 text-rose-900 dark:border-rose-900/60 dark:bg-rose-950/40 dark:text-rose-200",
  neutral: "border-zinc-200 bg-zinc-50 text-zinc-800 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-200",
  busy: "border-sky-200 bg-sky-50 text-sky-900 dark:border-sky-900/60 dark:bg-sky-950/40 dark:text-sky-200",
};

/** A decision that lost to an earlier one: what that one was (null when no person decided it). */
function lostRace(status: ApprovalStatus): "approved" | "rejected" | null {
  if (status === "running" || status === "succeeded" || status === "failed") return "approved";
  return status === "rejected" ? "rejected" : null;
}

/** What became of a decided (or expired) request, in a sentence. */

function Outcome({ approval: a, status }: { approval: ApprovalDetail; status: ApprovalStatus }) {
  const by = a.decided_by_email ?? "a team member";
  const at = a.decided_at != null ? <LocalTime seconds={a.decided_at} /> : null;
  const [tone, title, body]: [keyof typeof BOX, string, React.ReactNode] =
    status === "succeeded"
      ? [
          "good",
          "Succeeded",
          <>
            Approved by {by}
            {at && <>, {at}</>}; the write ran. Its result is below.
          </>,
        ]
      : status === "failed"
        ? [
            "bad",
            "Failed",
            <>
              Approved by {by}
              {at && <>, {at}</>}, but the write failed:{" "}
              <span className="wrap-anywhere">{a.error ?? "no reason given"}</span>
            </>,
          ]
        : status === "rejected"
          ? [
              "neutral",
              "Rejected",
              <>
                Rejected by {by}
                {at && <>, {at}</>}; nothing was written.{a.note && <> Note: “{a.note}”</>}
              </>,
            ]
          : status === "cancelled"
            ? [
                "neutral",
                "Cancelled",
                <>
                  {a.error ??
                    "The permission it was filed under went away before anyone approved it; nothing was written."}
                </>,
              ]
            : status === "running"
              ? [
                  "busy",
                  "Running",
                  <>
                    Approved by {by}
                    {at && <>, {at}</>}; the write is running.
                  </>,
                ]
              : [
                  "neutral",
                  "Expired",
                  <>
                    Nobody decided before <LocalTime seconds={a.expires_at} />; nothing was written.
                  </>,
                ];
  return (
    <div role="status" className={`rounded-lg border p-3 ${BOX[tone]}`}>
      <p className="font-semibold">{title}</p>
      <p className="mt-0.5">{body}</p>
    </div>
  );
}
