"use client";

import Link from "next/link";
import { useEffect, useId, useRef } from "react";
import { useQuery } from "@tanstack/react-query";
import { ApprovalStatusBadge } from "@/components/approvals/approval-status-badge";
import { BeforeChanged } from "@/components/approvals/before-changed";
import { LiveCountdown } from "@/components/auth-links/live-countdown";
import { JsonView } from "@/components/logs/json-view";
import { ErrorNote } from "@/components/ui/error-note";
import { ScrollRegion } from "@/components/ui/scroll-region";
import {
  approvalDetailOptions,
  useDecideApproval,
  type ApprovalDetail,
  type ApprovalStatus,
  type Decision,
} from "@/lib/queries/approvals";
import type { AgentStep } from "@/lib/queries/agent";

const link = "text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300";
const quiet = "text-zinc-700 dark:text-zinc-300";
const SUMMARY = [
  "cursor-pointer rounded-lg px-3 py-1.5 text-xs font-medium",
  "focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500",
].join(" ");

/**
 * A write the agent filed, in the conversation where it was asked for: what it would write where,
 * and while it waits Approve and run or Reject (the Approvals page's routes and rules: who may
 * decide, and why not); once decided, what became of it. The agent carries on by itself after a
 * decision; `onDecided` lets the page look for that at once.
 */
export function ApprovalCard({
  teamId,
  step,
  approvalId,
  connectionName,
  onDecided,
}: {
  teamId: string;
  step: AgentStep;
  approvalId: string;
  connectionName: string;
  onDecided: () => void;
}) {
  const { data: a, error, isPending, refetch } = useQuery(approvalDetailOptions(teamId, approvalId));
  const decide = useDecideApproval(teamId, approvalId);
  const titleId = useId();
  const reasonId = useId();
  const outcomeRef = useRef<HTMLDivElement>(null);
  const status: ApprovalStatus = a?.status ?? "pending";
  const pending = status === "pending";

  // The turn (which the page polls) moved on: someone decided elsewhere; the request says who.
  const behind = a?.status === "pending" && step.status !== "pending";
  useEffect(() => {
    if (behind) void refetch();
  }, [behind, refetch]);
  // The buttons are gone after a decision: the focus goes to what happened, once it shows.
  useEffect(() => {
    if (decide.isSuccess && !pending) outcomeRef.current?.focus();
  }, [decide.isSuccess, pending]);

  // An approval sends the fingerprint of the state shown (the summary is made from the account as
  // it is now): if it changed since, nothing runs, and the 409 refreshes the card with the new one.
  const run = (decision: Decision) =>
    decide.mutate({ decision, note: "", seenBefore: a?.current_fingerprint }, { onSuccess: onDecided });
  const reasons = a
    ? [...new Set([!a.can_approve && a.cannot_approve_reason, !a.can_reject && a.cannot_reject_reason])].filter(
        (r): r is string => Boolean(r),
      )
    : [];

  return (
    <section
      aria-labelledby={titleId}
      data-testid="agent-approval"
      className={`rounded-xl border p-3 text-sm sm:p-4 ${
        pending
          ? "border-amber-300 bg-amber-50 dark:border-amber-800/70 dark:bg-amber-950/40"
          : "border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900"
      }`}
    >
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <h3 id={titleId} className="font-semibold text-zinc-900 dark:text-zinc-100">
          {pending ? "The agent asks to write" : "A write the agent asked for"}
        </h3>
        <ApprovalStatusBadge status={status} />
        {pending && a && (
          <span className="text-xs text-amber-900 dark:text-amber-200">
            <LiveCountdown expiresAt={a.expires_at * 1000} />
          </span>
        )}
      </div>
      {isPending ? (
        <div aria-hidden="true" className="mt-3 space-y-2">
          <div className="h-4 w-3/4 animate-pulse rounded bg-zinc-200 dark:bg-zinc-800" />
          <div className="h-3 w-1/2 animate-pulse rounded bg-zinc-200 dark:bg-zinc-800" />
        </div>
      ) : error || !a ? (
        <div className="mt-3">
          <ErrorNote error={error} title="This approval request could not be loaded." />
        </div>
      ) : (
        <>
          <p data-testid="agent-approval-summary" className="mt-2 font-medium text-zinc-900 dark:text-zinc-100">
            {(pending && a.current_summary) || a.summary}
          </p>
          {pending && (
            <div className="mt-2">
              <BeforeChanged approval={a} testId="agent-approval-changed" />
            </div>
          )}
          <p className={`mt-1 text-xs ${quiet}`}>
            <span className="break-all font-mono">{step.operation_id}</span> on{" "}
            {a.redacted ? "a private connection" : (a.connection.name ?? connectionName)}
          </p>
          {!a.redacted && a.input !== null && (
            <details className="mt-2 rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-950">
              <summary className={SUMMARY}>{writeHeading(status)}</summary>
              <ScrollRegion
                label={writeHeading(status)}
                className="border-t border-zinc-200 px-3 py-2 font-mono text-xs dark:border-zinc-800"
              >
                <JsonView value={a.input} />
              </ScrollRegion>
            </details>
          )}
          {pending && reasons.length > 0 && (
            <div
              id={reasonId}
              data-testid="agent-approval-reason"
              className="mt-3 space-y-1 text-amber-950 dark:text-amber-100"
            >
              {reasons.map((r) => (
                <p key={r}>{r}</p>
              ))}
            </div>
          )}
          {decide.isError && (
            <div className="mt-3">
              <ErrorNote error={decide.error} title="Not decided" />
            </div>
          )}
          {pending && (a.can_approve || a.can_reject) && (
            <div className="mt-3 space-y-2">
              <div className="flex flex-wrap gap-2">
                <button
                  type="button"
                  className="btn-primary"
                  disabled={decide.isPending || !a.can_approve}
                  aria-describedby={!a.can_approve && reasons.length ? reasonId : undefined}
                  onClick={() => run("approve")}
                >
                  {decide.isPending && decide.variables?.decision === "approve"
                    ? "Running the write…"
                    : "Approve and run"}
                </button>
                <button
                  type="button"
                  className="btn-secondary"
                  disabled={decide.isPending || !a.can_reject}
                  onClick={() => run("reject")}
                >
                  {decide.isPending && decide.variables?.decision === "reject" ? "Rejecting…" : "Reject"}
                </button>
              </div>
              {a.can_approve && (
                <p className={`text-xs ${quiet}`}>
                  Approving runs it now at the provider, once; Patchbay cannot undo it. The agent is told either way.
                </p>
              )}
            </div>
          )}
          {!pending && (
            <div
              ref={outcomeRef}
              tabIndex={-1}
              data-testid="agent-approval-outcome"
              className="mt-2 focus:outline-none"
            >
              <Outcome approval={a} status={status} teamId={teamId} />
            </div>
          )}
          <p className="mt-2 text-xs">
            <Link href={`/${teamId}/approvals?approval=${encodeURIComponent(a.id)}`} className={link}>
              The request in Approvals
            </Link>
          </p>
        </>
      )}
    </section>
  );
}

/** The input's heading in the tense of what happened: asked for, being written, written, or never written. */
function writeHeading(status: ApprovalStatus): string {
  if (status === "succeeded") return "What it wrote";
  if (status === "running") return "What it is writing";
  if (status === "failed") return "What it tried to write";
  if (status === "pending") return "What it would write";
  return "What it would have written";
}

/** What became of a decided (or expired) request, in a sentence. */
function Outcome({
  approval: a,
  status,
  teamId,
}: {
  approval: ApprovalDetail;
  status: ApprovalStatus;
  teamId: string;
}) {
  const by = a.decided_by_email ?? "a team member";
  const log = a.log_id && (
    <>
      {" "}
      <Link href={`/${teamId}/logs?log=${encodeURIComponent(a.log_id)}`} className={link}>
        Its log
      </Link>
    </>
  );
  const sentence =
    status === "succeeded" ? (
      <>
        Approved by {by}; the write ran.{log}
      </>
    ) : status === "failed" ? (
      <>
        Approved by {by}, but the write failed: <span className="wrap-anywhere">{a.error ?? "no reason given"}</span>.
        {log}
      </>
    ) : status === "running" ? (
      <>Approved by {by}; the write is running.</>
    ) : status === "rejected" ? (
      <>
        Rejected by {by}; nothing was written.{a.note && <> Note: “{a.note}”</>}
      </>
    ) : status === "cancelled" ? (
      <>{a.error ?? "The request was cancelled before anyone decided it; nothing was written."}</>
    ) : (
      <>Nobody decided it in time; nothing was written.</>
    );
  return <p className={quiet}>{sentence}</p>;
}
