"use client";

import Link from "next/link";
import { useId, useMemo, useRef, useState } from "react";
import { ErrorNote } from "@/components/ui/error-note";
import { draftDiff, type DiffLine } from "@/components/workflows/draft-diff";
import { readableProblem } from "@/components/workflows/editor-model";
import type { CatalogueIndex } from "@/components/workflows/catalogue";
import { useConnections } from "@/lib/queries/connections";
import { useCopilotDraft, type WorkflowDraft, type WorkflowNode } from "@/lib/queries/workflows";

// The workflow Copilot beside the editor: the member describes what they want, the model's draft
// comes back checked as a save checks it, shown as what it would change in the editor; "Apply to
// editor" loads it into the form (the member then saves as usual), "Discard" drops it.

const MODEL_TYPES = new Set(["openai", "anthropic", "sandbox_model"]);

const KIND_STYLE: Record<DiffLine["kind"], { label: string; className: string }> = {
  added: {
    label: "Added",
    className: "bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-950/60 dark:text-emerald-200",
  },
  removed: {
    label: "Removed",
    className: "bg-rose-50 text-rose-800 ring-rose-200 dark:bg-rose-950/60 dark:text-rose-200",
  },
  changed: {
    label: "Changed",
    className: "bg-amber-50 text-amber-900 ring-amber-200 dark:bg-amber-950/60 dark:text-amber-200",
  },
};

export function CopilotPanel({
  teamId,
  workflowId,
  catalogue,
  current,
  onApply,
}: {
  teamId: string;
  workflowId?: string;
  catalogue: CatalogueIndex;
  /** The editor's state now (nodes not yet given an operation left out). */
  current: WorkflowDraft;
  onApply: (draft: WorkflowDraft) => void;
}) {
  const ids = { model: useId(), message: useId(), result: useId() };
  const connections = useConnections(teamId, {});
  const models = useMemo(
    () => (connections.data ?? []).filter((c) => c.id && MODEL_TYPES.has(c.type)),
    [connections.data],
  );
  const [picked, setPicked] = useState("");
  const modelId = picked || models[0]?.id || "";
  const [message, setMessage] = useState("");
  const ask = useCopilotDraft(teamId);
  const [applied, setApplied] = useState(false);
  const resultRef = useRef<HTMLDivElement>(null);

  const answer = ask.data;
  const describeNode = (n: WorkflowNode) => {
    const op = catalogue.byId.get(n.operation_id);
    const on = n.connection_id ? ` on ${catalogue.describeConnection(n.connection_id)}` : "";
    // How it runs, so a condition, a loop or an approval step in the draft is read before it is applied.
    const how = [
      n.for_each !== undefined && `for each item of ${n.for_each}`,
      n.when !== undefined && "only when its condition holds",
      n.continue_on_error && "goes on if it fails",
      n.approval === "required" && "each write approved by a person first",
    ].filter(Boolean);
    return `${n.id} · ${n.label || op?.title || n.operation_id} (${n.operation_id})${on}${how.length ? `, ${how.join(", ")}` : ""}`;
  };
  const diff = answer?.draft ? draftDiff(current, answer.draft, describeNode) : [];

  const send = (e: React.FormEvent) => {
    e.preventDefault();
    if (!modelId || !message.trim() || ask.isPending) return;
    setApplied(false);
    ask.mutate(
      {
        model_connection_id: modelId,
        message: message.trim(),
        ...(workflowId && { workflow_id: workflowId }),
        current,
      },
      { onSettled: () => requestAnimationFrame(() => resultRef.current?.focus()) },
    );
  };
  const apply = () => {
    if (!answer?.draft) return;
    onApply(answer.draft);
    ask.reset();
    setApplied(true);
  };

  return (
    <section className="card space-y-3 p-4 sm:p-5" aria-labelledby="copilot-heading" data-testid="copilot">
      <div>
        <h2 id="copilot-heading" className="text-base font-semibold">
          Copilot
        </h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Describe what you want: the model drafts the workflow from the operations and connections you can use. Each
          message costs 1 credit; nothing is saved until you save.
        </p>
      </div>
      {connections.isSuccess && models.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Copilot needs a model connection (OpenAI, Anthropic or the sandbox model).{" "}
          <Link href={`/${teamId}/connections`} className="underline">
            Add one in Connections
          </Link>
          .
        </p>
      ) : (
        <form onSubmit={send} className="space-y-3" aria-label="Ask Copilot">
          <div className="max-w-xl">
            <label htmlFor={ids.model} className="mb-1 block text-sm font-medium">
              Model connection
            </label>
            <select
              id={ids.model}
              className="input"
              value={modelId}
              onChange={(e) => setPicked(e.target.value)}
              disabled={!models.length}
            >
              {models.map((c) => (
                <option key={c.id} value={c.id!}>
                  {c.display_name || c.id} ({c.type})
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={ids.message} className="mb-1 block text-sm font-medium">
              Describe what you want
            </label>
            <textarea
              id={ids.message}
              className="input min-h-20"
              rows={3}
              maxLength={4000}
              value={message}
              placeholder="Every day at 9, report last week's sessions and save the total as a note"
              onChange={(e) => setMessage(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) send(e);
              }}
            />
          </div>
          <button type="submit" className="btn-primary" disabled={!modelId || !message.trim() || ask.isPending}>
            {ask.isPending ? "Drafting…" : "Send"}
          </button>
        </form>
      )}

      <div ref={resultRef} tabIndex={-1} id={ids.result} aria-live="polite" className="space-y-3 focus:outline-none">
        {ask.isError && <ErrorNote error={ask.error} title="Copilot could not draft this" />}
        {applied && (
          <p className="text-sm text-emerald-800 dark:text-emerald-300" role="status">
            The draft is in the editor: review it and save.
          </p>
        )}
        {answer && (
          <div className="space-y-3" data-testid="copilot-answer">
            <p className="rounded-lg bg-zinc-50 p-3 text-sm wrap-anywhere dark:bg-zinc-900">{answer.reply}</p>
            {answer.problems.length > 0 && (
              <div
                role="alert"
                className="rounded-lg border border-rose-200 bg-rose-50 p-3 text-sm text-rose-800 dark:border-rose-900 dark:bg-rose-950/60 dark:text-rose-200"
              >
                <p className="font-semibold">The draft would not save yet: fix these after applying it</p>
                <ul className="mt-1 list-disc space-y-0.5 pl-5">
                  {answer.problems.map((p, i) => (
                    <li key={i} className="wrap-anywhere">
                      {readableProblem(p, answer.draft?.nodes.map((n) => n.id) ?? [])}
                    </li>
                  ))}
                </ul>
              </div>
            )}
            {answer.draft && (
              <>
                <h3 className="text-sm font-semibold">What the draft changes</h3>
                {diff.length ? (
                  <ul className="space-y-1.5" aria-label="What the draft changes" data-testid="copilot-diff">
                    {diff.map((line, i) => (
                      <li key={i} className="flex items-baseline gap-2 text-sm">
                        <span
                          className={`shrink-0 rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${KIND_STYLE[line.kind].className}`}
                        >
                          {KIND_STYLE[line.kind].label}
                        </span>
                        <span className="min-w-0 wrap-anywhere">{line.text}</span>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="text-sm text-zinc-600 dark:text-zinc-400">The draft is the same as the editor.</p>
                )}
                <div className="flex flex-wrap gap-2">
                  <button type="button" className="btn-primary" onClick={apply}>
                    Apply to editor
                  </button>
                  <button type="button" className="btn-secondary" onClick={() => ask.reset()}>
                    Discard
                  </button>
                </div>
              </>
            )}
          </div>
        )}
      </div>
    </section>
  );
}
