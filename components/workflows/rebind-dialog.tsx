"use client";

import Link from "next/link";
import { useEffect, useId, useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import { ErrorNote } from "@/components/ui/error-note";
import type { CatalogueIndex } from "@/components/workflows/catalogue";
import { connectionLabel } from "@/lib/queries/operations";
import { useRebindWorkflow, type WorkflowDetail } from "@/lib/queries/workflows";
import { plural } from "@/lib/text/plural";

type Used = { id: string; name: string; type: string | null; problem: string | null; nodes: string[]; types: string[] };

/**
 * The connections a workflow's nodes use: each with its nodes, its problem and the types every one
 * of those nodes' operations accepts.
 */
function connectionsUsed(workflow: WorkflowDetail, catalogue: CatalogueIndex | undefined): Used[] {
  const used = new Map<string, Used>();
  for (const n of workflow.nodes) {
    if (!n.connection_id) continue;
    const accepts = n.operation?.types ?? [];
    const entry = used.get(n.connection_id);
    if (entry) {
      entry.nodes.push(n.id);
      entry.types = entry.types.filter((t) => accepts.includes(t));
      continue;
    }
    const c = n.connection;
    const name = c
      ? `${c.display_name ?? c.external_id ?? c.id} (${catalogue?.typeName(c.type) ?? c.type})`
      : `${n.connection_id} (deleted)`;
    used.set(n.connection_id, {
      id: n.connection_id,
      name,
      type: c?.type ?? null,
      problem: n.connection_problem,
      nodes: [n.id],
      types: [...accepts],
    });
  }
  return [...used.values()];
}

/**
 * Rebind: every node on one connection (a deleted one, or an API key replaced by a new
 * connection) moves to another of the same type, in one step; the answer says how many moved.
 */
export function RebindDialog({
  teamId,
  workflow,
  catalogue,
  open,
  onClose,
}: {
  teamId: string;
  workflow: WorkflowDetail;
  catalogue: CatalogueIndex | undefined;
  open: boolean;
  onClose: () => void;
}) {
  const id = useId();
  const used = connectionsUsed(workflow, catalogue);
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const rebind = useRebindWorkflow(teamId, workflow.id);

  // Opening starts afresh, from the connection with a problem when there is one.
  useEffect(() => {
    if (!open) return;
    rebind.reset();
    setFrom((used.find((u) => u.problem) ?? used[0])?.id ?? "");
    setTo("");
    // Resets only on opening, not on every change of the workflow or the mutation.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see the line above
  }, [open]);

  const source = used.find((u) => u.id === from);
  const candidates = (catalogue?.connections ?? []).filter(
    (c) =>
      c.id !== from &&
      source &&
      (source.type ? c.type === source.type : source.types.includes(c.type)) &&
      source.types.includes(c.type),
  );
  const done = rebind.isSuccess;

  return (
    <Dialog open={open} onClose={onClose} title="Rebind to another connection" className="max-w-lg">
      {done ? (
        <div className="space-y-4 text-sm">
          <p
            role="status"
            data-testid="rebind-result"
            className="rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-emerald-900 dark:border-emerald-900/60 dark:bg-emerald-950/40 dark:text-emerald-200"
          >
            {rebind.data.nodes_rebound === 0
              ? "No node used that connection any more: nothing changed."
              : `${plural(rebind.data.nodes_rebound, "node now uses", "nodes now use")} ${catalogue?.describeConnection(rebind.variables.to) ?? rebind.variables.to}.`}
          </p>
          <div className="flex justify-end">
            <button type="button" className="btn-primary" onClick={onClose} data-autofocus>
              Done
            </button>
          </div>
        </div>
      ) : (
        <form
          className="space-y-4 text-sm"
          onSubmit={(e) => {
            e.preventDefault();
            if (from && to) rebind.mutate({ from, to });
          }}
        >
          <p className="text-zinc-600 dark:text-zinc-300">
            Every node on the first connection moves to the second; the rest of the workflow stays as it is.
          </p>
          <div>
            <label htmlFor={`${id}-from`} className="mb-1 block font-medium">
              From
            </label>
            <select
              id={`${id}-from`}
              className="input"
              value={from}
              onChange={(e) => {
                setFrom(e.target.value);
                setTo("");
              }}
              data-autofocus
            >
              {used.map((u) => (
                <option key={u.id} value={u.id}>
                  {u.name} · {u.nodes.join(", ")}
                  {u.problem ? ` · ${u.problem.split(":")[0]}` : ""}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={`${id}-to`} className="mb-1 block font-medium">
              To
            </label>
            <select
              id={`${id}-to`}
              className="input"
              value={to}
              onChange={(e) => setTo(e.target.value)}
              aria-describedby={`${id}-to-help`}
            >
              <option value="">
                {candidates.length ? "Choose a connection…" : "No other connection of this type"}
              </option>
              {candidates.map((c) => (
                <option key={c.id} value={c.id}>
                  {connectionLabel(c)} · {catalogue?.typeName(c.type) ?? c.type}
                </option>
              ))}
            </select>
            <p id={`${id}-to-help`} className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
              {candidates.length ? (
                "Your connections of the same type."
              ) : (
                <>
                  <Link
                    href={`/${teamId}/connections`}
                    className="font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300"
                  >
                    Add a connection
                  </Link>{" "}
                  of this type first.
                </>
              )}
            </p>
          </div>
          {rebind.isError && <ErrorNote error={rebind.error} title="Not rebound" />}
          <div className="flex justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="btn-primary" disabled={!from || !to || rebind.isPending}>
              {rebind.isPending ? "Rebinding…" : "Rebind"}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
