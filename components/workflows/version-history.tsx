"use client";

import { useEffect, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Dialog } from "@/components/ui/dialog";
import { ErrorNote } from "@/components/ui/error-note";
import { JsonView } from "@/components/logs/json-view";
import { LocalTime } from "@/components/time/local-time";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { plural } from "@/lib/text/plural";
import { triggerWords, versionDiff } from "@/components/workflows/version-diff";
import {
  useRestoreVersion,
  workflowVersionsQuery,
  type TriggeredWorkflowDetail,
  type WorkflowVersion,
} from "@/components/workflows/trigger-api";

const term = "text-zinc-500 dark:text-zinc-400";
const MARK = { added: "+", removed: "−", changed: "~" } as const;
const TONE = {
  added:
    "border-emerald-200 bg-emerald-50 text-emerald-950 dark:border-emerald-900/60 dark:bg-emerald-950/40 dark:text-emerald-100",
  removed: "border-rose-200 bg-rose-50 text-rose-950 dark:border-rose-900/60 dark:bg-rose-950/40 dark:text-rose-100",
  changed:
    "border-amber-200 bg-amber-50 text-amber-950 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-100",
};

const author = (v: WorkflowVersion) => v.created_by_email ?? (v.created_by ? v.created_by : "the command line");

/**
 * History: every version of the workflow's definition (its nodes and trigger), newest first; one
 * opens with its definition and what restoring it would change, and Restore saves it as the next
 * version under the rules of any save.
 */
export function VersionHistory({ teamId, workflow }: { teamId: string; workflow: TriggeredWorkflowDetail }) {
  const versions = useQuery(workflowVersionsQuery(teamId, workflow.id));
  const [openVersion, setOpenVersion] = useState<number | null>(null);
  const [restored, setRestored] = useState<{ from: number; to: number } | null>(null);
  const list = versions.data ?? [];
  const current = list.find((v) => v.version === workflow.version) ?? list[0];
  const selected = list.find((v) => v.version === openVersion) ?? null;

  return (
    <section aria-labelledby="workflow-history-heading" className="card p-4 sm:p-5">
      <h2 id="workflow-history-heading" className="text-base font-semibold">
        History
      </h2>
      <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">
        Each save that changes its nodes or trigger is a new version; each run records the version it ran. Open one to
        see it and what restoring it would change.
      </p>
      <div aria-live="polite">
        {restored && (
          <p className="mb-3 text-sm font-medium" data-testid="version-restored">
            Version {restored.from} was restored as version {restored.to}.
          </p>
        )}
      </div>
      {versions.isPending ? (
        <div className="h-24 animate-pulse rounded-lg bg-zinc-100 dark:bg-zinc-800" aria-hidden="true" />
      ) : versions.error ? (
        <ErrorNote error={versions.error} title="The versions could not be loaded." />
      ) : list.length === 0 ? (
        <p className={`text-sm ${term}`}>No version recorded yet.</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
          <table className="w-full text-left text-sm" data-testid="workflow-versions">
            <caption className="sr-only">Versions of {workflow.name}, newest first</caption>
            <thead className="bg-zinc-50 text-xs uppercase tracking-wide text-zinc-600 dark:bg-zinc-950 dark:text-zinc-400">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  Version
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Saved
                </th>
                <th scope="col" className="hidden px-3 py-2 font-medium sm:table-cell">
                  By
                </th>
                <th scope="col" className="hidden px-3 py-2 font-medium md:table-cell">
                  Trigger
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
              {list.map((v) => (
                <tr key={v.version} data-testid="workflow-version-row">
                  <td className="px-3 py-2 whitespace-nowrap">
                    <span className="font-medium tabular-nums">{v.version}</span>
                    {v.version === current?.version && <span className={`ml-2 text-xs ${term}`}>current</span>}
                  </td>
                  <td className="px-3 py-2 sm:whitespace-nowrap">
                    <LocalTime seconds={v.created_at} />
                  </td>
                  <td className="hidden max-w-[14rem] truncate px-3 py-2 sm:table-cell" title={author(v)}>
                    {author(v)}
                  </td>
                  <td className="hidden max-w-[16rem] truncate px-3 py-2 md:table-cell">
                    {triggerWords(v.trigger)} · {plural(v.nodes.length, "node")}
                  </td>
                  <td className="py-2 pr-3 pl-1 text-right">
                    <button type="button" className="btn-secondary px-3 py-1" onClick={() => setOpenVersion(v.version)}>
                      View<span className="sr-only"> version {v.version}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Dialog
        open={selected !== null && current !== undefined}
        onClose={() => setOpenVersion(null)}
        title={selected ? `Version ${selected.version}` : "Version"}
        className="max-w-3xl"
      >
        {selected && current && (
          <VersionDetail
            key={selected.version}
            teamId={teamId}
            workflowId={workflow.id}
            version={selected}
            current={current}
            onClose={() => setOpenVersion(null)}
            onRestored={(to) => {
              setRestored({ from: selected.version, to });
              setOpenVersion(null);
            }}
          />
        )}
      </Dialog>
    </section>
  );
}

function VersionDetail({
  teamId,
  workflowId,
  version: v,
  current,
  onClose,
  onRestored,
}: {
  teamId: string;
  workflowId: string;
  version: WorkflowVersion;
  current: WorkflowVersion;
  onClose: () => void;
  onRestored: (version: number) => void;
}) {
  const restore = useRestoreVersion(teamId, workflowId);
  const [confirming, setConfirming] = useState(false);
  // The button that asked is gone once the question shows: the focus moves to the answer.
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);
  const isCurrent = v.version === current.version;
  const diff = versionDiff(current, v);
  return (
    <div className="space-y-4 text-sm" data-testid="version-detail">
      <p className={term}>
        Saved <LocalTime seconds={v.created_at} /> by {author(v)} · named “{v.name}” · {triggerWords(v.trigger)}
      </p>
      <section aria-labelledby="version-diff-heading">
        <h3 id="version-diff-heading" className="mb-2 font-semibold">
          {isCurrent
            ? "This is the current version"
            : `What restoring it changes in the current version (${current.version})`}
        </h3>
        {isCurrent ? null : diff.length === 0 ? (
          <p className={term}>Nothing: it runs the same nodes with the same trigger.</p>
        ) : (
          <ul className="space-y-2" data-testid="version-diff">
            {diff.map((line, i) => (
              <li key={i} className={`rounded-md border px-3 py-2 ${TONE[line.kind]}`}>
                <p className="font-medium">
                  <span aria-hidden="true" className="mr-1 font-mono">
                    {MARK[line.kind]}
                  </span>
                  {line.text}
                </p>
                {line.details.length > 0 && (
                  <ul className="mt-1 space-y-0.5 font-mono text-xs">
                    {line.details.map((d, j) => (
                      <li key={j} className="wrap-anywhere">
                        {d}
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <details className="rounded-lg border border-zinc-200 dark:border-zinc-800">
        <summary className="cursor-pointer rounded-lg px-3 py-1.5 font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500">
          Its definition ({plural(v.nodes.length, "node")})
        </summary>
        <ScrollRegion
          label={`Definition of version ${v.version}`}
          className="max-h-80 border-t border-zinc-200 px-3 py-2 font-mono text-xs dark:border-zinc-800"
        >
          <JsonView value={{ trigger: v.trigger, nodes: v.nodes }} />
        </ScrollRegion>
      </details>
      {restore.error && <ErrorNote error={restore.error} title="Not restored" />}
      {confirming ? (
        <div
          role="group"
          aria-labelledby="restore-confirm-title"
          className="rounded-lg border border-zinc-300 p-3 dark:border-zinc-700"
        >
          <p id="restore-confirm-title" className="font-semibold">
            Restore version {v.version}?
          </p>
          <p className="mt-1 text-zinc-700 dark:text-zinc-300">
            Its nodes and trigger are saved as a new version, checked like any save; the versions in between stay in the
            history. The name and whether it is active do not change.
          </p>
          <div className="mt-3 flex justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={() => setConfirming(false)}>
              Cancel
            </button>
            <button
              type="button"
              className="btn-primary"
              disabled={restore.isPending}
              ref={confirmRef}
              onClick={() =>
                restore.mutate(v.version, {
                  onSuccess: (saved) => onRestored(saved.version),
                  onError: () => setConfirming(false),
                })
              }
            >
              {restore.isPending ? "Restoring…" : `Restore version ${v.version}`}
            </button>
          </div>
        </div>
      ) : (
        <div className="flex justify-end gap-2">
          <button type="button" className="btn-secondary" onClick={onClose}>
            Close
          </button>
          {!isCurrent && (
            <button type="button" className="btn-primary" onClick={() => setConfirming(true)}>
              Restore…
            </button>
          )}
        </div>
      )}
    </div>
  );
}
