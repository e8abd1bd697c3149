"use client";

import Link from "next/link";
import { useEffect, useMemo, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { NodeCard } from "@/components/workflows/node-card";
import { TriggerField, type TriggerValue } from "@/components/workflows/trigger-field";
import { WebhookUrlDialog } from "@/components/workflows/webhook-url-dialog";
import type { SavedWorkflow, WorkflowTrigger } from "@/components/workflows/trigger-api";
import { ActiveSwitch, WriteNote, type WriteNode } from "@/components/workflows/write-note";
import { SaveProblems } from "@/components/workflows/save-problems";
import { CopilotPanel } from "@/components/workflows/copilot-panel";
import {
  blankDraft,
  draftOf,
  nodeFields,
  nodeOf,
  problemsByField,
  type NodeDraft,
} from "@/components/workflows/editor-model";
import { FieldProblem, RequiredMark } from "@/components/workflows/field-problem";
import { ApiRequestError } from "@/lib/queries/api-client";
import type { CatalogueIndex } from "@/components/workflows/catalogue";
import { useSaveWorkflow, type WorkflowDraft, type WorkflowNode } from "@/lib/queries/workflows";
import { nodeControls } from "@/lib/schemas/workflows";

type EditorInitial = {
  name: string;
  nodes: WorkflowNode[];
  schedule: string | null;
  timezone: string | null;
  active: boolean;
  /** What starts it (CONTRACT §13); absent reads as its schedule, or manual. */
  trigger?: WorkflowTrigger;
};

type Props = {
  teamId: string;
  isOwner: boolean;
  catalogue: CatalogueIndex;
  initial: EditorInitial;
  /** Absent for a new workflow. */
  workflowId?: string;
  /** What is wrong with the connections the saved nodes use, by connection id. */
  connectionProblems?: Map<string, string>;
  cancelHref: string;
};

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
/** JSON with object keys sorted: the same nodes compare equal whatever order their input's fields were written in. */
const canonical = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(",")}]`
    : v && typeof v === "object"
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
          .join(",")}}`
      : JSON.stringify(v);
const sameNodes = (a: WorkflowNode[], b: WorkflowNode[]) => canonical(a) === canonical(b);
const normalized = (nodes: WorkflowNode[]) =>
  nodes.map((n) => ({
    id: n.id,
    label: n.label,
    operation_id: n.operation_id,
    ...(n.connection_id && { connection_id: n.connection_id }),
    input: n.input ?? {},
    // As the form writes them back: a list's reference trimmed, `continue_on_error: false` left out.
    ...nodeControls({
      ...n,
      for_each: n.for_each?.trim(),
      continue_on_error: n.continue_on_error || undefined,
    }),
  }));

/**
 * The form editor: name, the ordered nodes, the schedule, writes and activation; Save names every
 * problem the server found.
 */
export function WorkflowEditor({
  teamId,
  isOwner,
  catalogue,
  initial,
  workflowId,
  connectionProblems,
  cancelHref,
}: Props) {
  const router = useRouter();
  const [name, setName] = useState(initial.name);
  const [drafts, setDrafts] = useState<NodeDraft[]>(() =>
    initial.nodes.length ? initial.nodes.map((n) => draftOf(n, catalogue.byId.get(n.operation_id))) : [blankDraft([])],
  );
  const [trigger, setTrigger] = useState<TriggerValue>(() => ({
    type: initial.trigger?.type ?? (initial.schedule ? "schedule" : "manual"),
    schedule: {
      mode: initial.schedule ? "cron" : "manual",
      cron: initial.schedule ?? "",
      timezone: initial.timezone || browserZone(),
    },
    events: initial.trigger?.events ?? [],
  }));
  const schedule = trigger.schedule;
  // The URL a save just made: shown once, then the workflow's page.
  const [webhookUrl, setWebhookUrl] = useState<{ url: string; id: string } | null>(null);
  const [active, setActive] = useState(initial.active);
  const [formProblems, setFormProblems] = useState<string[]>([]);
  const save = useSaveWorkflow(teamId, workflowId);
  const problemsRef = useRef<HTMLDivElement>(null);
  // After a move, an add or a removal: where the keyboard focus goes once the list has rendered.
  const pendingFocus = useRef<{ key: string; target: string } | null>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const want = pendingFocus.current;
    if (!want) return;
    pendingFocus.current = null;
    const card = document.querySelector(`[data-node-key="${want.key}"]`);
    // A node moved to the top or the bottom has that button disabled: the other move button takes the focus.
    const other = want.target === "up" ? "down" : want.target === "down" ? "up" : want.target;
    const el = [want.target, other, "title"]
      .map((t) => card?.querySelector<HTMLElement>(`[data-focus="${t}"]:not([disabled])`))
      .find(Boolean);
    (el ?? addRef.current)?.focus();
  }, [drafts]);

  const fields = useMemo(
    () => drafts.map((_, i) => nodeFields(drafts, i, (id) => catalogue.byId.get(id))),
    [drafts, catalogue],
  );
  const built = useMemo(
    () => drafts.map((d, i) => nodeOf(d, catalogue.byId.get(d.operation_id), i, fields[i].compareKind)),
    [drafts, catalogue, fields],
  );
  const nodes = built.map((b) => b.node);
  const nodesChanged = !workflowId || !sameNodes(normalized(nodes), normalized(initial.nodes));
  const writes: WriteNode[] = drafts.flatMap((d) => {
    const op = catalogue.byId.get(d.operation_id);
    return op?.kind === "write"
      ? [
          {
            id: d.key,
            label: d.label.trim() || d.id,
            operation: op.id,
            connection: d.connection_id ? catalogue.describeConnection(d.connection_id) : null,
            approval: d.approval,
          },
        ]
      : [];
  });
  // Writes that wait for a person's approval run on that person's yes, not on an owner's
  // activation: a member may activate a workflow whose every write asks first (CONTRACT §13).
  const unapproved = writes.filter((w) => !w.approval);
  const lockedReason =
    isOwner || unapproved.length === 0
      ? null
      : workflowId && initial.active && !nodesChanged
        ? null
        : workflowId && initial.active
          ? "Only a team owner can activate a workflow with write nodes: changing its nodes makes it inactive when you save, until an owner activates it again. A workflow whose every write asks for approval first is any member's to activate."
          : "Only a team owner can activate a workflow with write nodes: save it inactive and ask an owner to activate it. A workflow whose every write asks for approval first is any member's to activate.";

  const update = (key: string, next: NodeDraft) => setDrafts((all) => all.map((d) => (d.key === key ? next : d)));
  const move = (index: number, by: -1 | 1) => {
    const key = drafts[index].key;
    pendingFocus.current = { key, target: by < 0 ? "up" : "down" };
    setDrafts((all) => {
      const next = [...all];
      const [moved] = next.splice(index, 1);
      next.splice(index + by, 0, moved);
      return next;
    });
  };
  const remove = (index: number) => {
    const neighbour = drafts[index + 1] ?? drafts[index - 1];
    if (neighbour) pendingFocus.current = { key: neighbour.key, target: "title" };
    setDrafts((all) => all.filter((_, i) => i !== index));
  };
  const add = () => {
    const blank = blankDraft(drafts.map((d) => d.id));
    pendingFocus.current = { key: blank.key, target: "label" };
    setDrafts((all) => [...all, blank]);
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const problems = [
      ...(name.trim() ? [] : ["name: is required: give the workflow a name"]),
      ...built.flatMap((b) => b.problems),
      ...(schedule.mode === "cron" && !schedule.cron.trim()
        ? ["schedule: is required: type a cron expression, or choose Manual"]
        : []),
      ...(trigger.type === "event" && trigger.events.length === 0
        ? ["events: is required: choose at least one event type, or another trigger"]
        : []),
    ];
    setFormProblems(problems);
    if (problems.length) {
      save.reset();
      requestAnimationFrame(() => problemsRef.current?.focus());
      return;
    }
    const draft: WorkflowDraft & Pick<WorkflowTrigger, "type"> = {
      name: name.trim(),
      nodes,
      schedule: schedule.mode === "cron" ? schedule.cron.trim() : null,
      timezone: schedule.mode === "cron" ? schedule.timezone : null,
      active: lockedReason ? false : active,
      type: trigger.type,
    };
    // A change that leaves the nodes as they were does not send them: a member may then rename
    // or reschedule an active workflow that writes without it needing an owner again.
    const { type, ...fields } = draft;
    const withTrigger = { ...fields, trigger: type, events: type === "event" ? trigger.events : null };
    const body = workflowId && !nodesChanged ? (({ nodes: _, ...rest }) => rest)(withTrigger) : withTrigger;
    save.mutate(body as unknown as WorkflowDraft, {
      onSuccess: (saved) => {
        const url = (saved as SavedWorkflow).webhook_url;
        if (url) setWebhookUrl({ url, id: saved.id });
        else router.push(`/${teamId}/workflows/${saved.id}`);
      },
      onError: () => requestAnimationFrame(() => problemsRef.current?.focus()),
    });
  };

  /** A Copilot draft replaces the form's state; the member reviews it and saves as usual. */
  const applyDraft = (draft: WorkflowDraft) => {
    setName(draft.name);
    setDrafts(
      draft.nodes.length ? draft.nodes.map((n) => draftOf(n, catalogue.byId.get(n.operation_id))) : [blankDraft([])],
    );
    // The Copilot speaks of schedules only: another trigger is kept unless it drafts a schedule.
    setTrigger((was) => ({
      ...was,
      type: draft.schedule ? "schedule" : was.type === "schedule" ? "manual" : was.type,
      schedule: {
        mode: draft.schedule ? "cron" : "manual",
        cron: draft.schedule ?? "",
        timezone: draft.timezone || was.schedule.timezone,
      },
    }));
    setActive(draft.active);
    setFormProblems([]);
    save.reset();
    requestAnimationFrame(() => nameRef.current?.focus());
  };
  // What the Copilot is told the editor holds: nodes not yet given an operation are left out.
  const current: WorkflowDraft = {
    name: name.trim(),
    nodes: nodes.filter((n) => n.operation_id),
    schedule: schedule.mode === "cron" ? schedule.cron.trim() || null : null,
    timezone: schedule.mode === "cron" && schedule.cron.trim() ? schedule.timezone : null,
    active,
  };

  const ids = drafts.map((d) => d.id);
  // The problems of the last Save (the form's own, else the server's 400), each on its field.
  const shownProblems =
    formProblems.length > 0
      ? formProblems
      : save.error instanceof ApiRequestError && save.error.status === 400 && typeof save.error.detail === "string"
        ? save.error.detail.split("; ")
        : [];
  const fieldProblems = problemsByField(shownProblems);
  const nodeProblems = (i: number) => {
    const prefix = `node:${i}:`;
    return Object.fromEntries(
      [...fieldProblems].filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k.slice(prefix.length), v]),
    );
  };
  return (
    <div className="space-y-6">
      <CopilotPanel
        teamId={teamId}
        workflowId={workflowId}
        catalogue={catalogue}
        current={current}
        onApply={applyDraft}
      />
      <form
        onSubmit={submit}
        className="space-y-6"
        aria-label={workflowId ? "Edit the workflow" : "New workflow"}
        noValidate
      >
        <section className="card space-y-4 p-4 sm:p-5" aria-labelledby="editor-name-heading">
          <h2 id="editor-name-heading" className="text-base font-semibold">
            Workflow
          </h2>
          <div className="max-w-xl">
            <div className="mb-1 flex items-baseline gap-2">
              <label htmlFor="workflow-name" className="block text-sm font-medium">
                Name
              </label>
              <RequiredMark />
            </div>
            <input
              id="workflow-name"
              ref={nameRef}
              className="input"
              value={name}
              maxLength={200}
              placeholder="Weekly traffic to Slack"
              aria-required="true"
              aria-invalid={fieldProblems.has("name") || undefined}
              aria-describedby={fieldProblems.has("name") ? "workflow-name-problem" : undefined}
              onChange={(e) => setName(e.target.value)}
            />
            <FieldProblem id="workflow-name-problem" problem={fieldProblems.get("name")} />
          </div>
        </section>

        <section className="space-y-3" aria-labelledby="editor-nodes-heading">
          <div>
            <h2 id="editor-nodes-heading" className="text-base font-semibold">
              Nodes
            </h2>
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              They run in this order. A node may run only when a condition holds, once per row of a list, or wait for a
              person&apos;s approval before it writes. A node that fails ends the run (the nodes after it are skipped)
              unless it is set to continue.
            </p>
          </div>
          <ol className="space-y-3">
            {drafts.map((d, i) => (
              <NodeCard
                key={d.key}
                teamId={teamId}
                index={i}
                count={drafts.length}
                draft={d}
                earlier={drafts.slice(0, i)}
                fields={fields[i]}
                catalogue={catalogue}
                connectionProblem={(d.connection_id && connectionProblems?.get(d.connection_id)) || null}
                problems={nodeProblems(i)}
                onChange={(next) => update(d.key, next)}
                onMove={(by) => move(i, by)}
                onRemove={() => remove(i)}
              />
            ))}
          </ol>
          <button ref={addRef} type="button" className="btn-secondary" onClick={add} disabled={drafts.length >= 50}>
            <span aria-hidden="true">+</span> Add a node
          </button>
        </section>

        <section className="card p-4 sm:p-5" aria-labelledby="editor-schedule-heading">
          <h2 id="editor-schedule-heading" className="mb-3 text-base font-semibold">
            Trigger
          </h2>
          <TriggerField
            teamId={teamId}
            value={trigger}
            onChange={setTrigger}
            hasWebhookUrl={!!workflowId && initial.trigger?.type === "webhook"}
            problems={{
              schedule: fieldProblems.get("schedule"),
              timezone: fieldProblems.get("timezone"),
              trigger: fieldProblems.get("trigger"),
              events: fieldProblems.get("events"),
            }}
          />
        </section>

        <section className="card space-y-3 p-4 sm:p-5" aria-labelledby="editor-activation-heading">
          <h2 id="editor-activation-heading" className="text-base font-semibold">
            Writes and activation
          </h2>
          {writes.length ? (
            <WriteNote writes={writes} isOwner={isOwner} />
          ) : (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">No node writes: its runs only read and format.</p>
          )}
          <ActiveSwitch
            checked={active}
            onChange={setActive}
            lockedReason={lockedReason}
            manual={trigger.type === "manual"}
            startedBy={
              trigger.type === "webhook"
                ? "a POST to its URL"
                : trigger.type === "event"
                  ? "each event"
                  : "its schedule"
            }
            writes={writes.length > 0}
            approvedOnly={writes.length > 0 && unapproved.length === 0}
          />
        </section>

        <div className="space-y-3">
          <div ref={problemsRef} tabIndex={-1} className="focus:outline-none">
            {formProblems.length > 0 ? (
              <SaveProblems problems={formProblems} ids={ids} />
            ) : save.isError ? (
              <SaveProblems error={save.error} ids={ids} />
            ) : null}
          </div>
          <div className="flex flex-wrap gap-2">
            <button type="submit" className="btn-primary" disabled={save.isPending || save.isSuccess}>
              {save.isPending ? "Saving…" : workflowId ? "Save changes" : "Save workflow"}
            </button>
            <Link href={cancelHref} className="btn-secondary">
              Cancel
            </Link>
          </div>
        </div>
      </form>
      <WebhookUrlDialog
        url={webhookUrl?.url ?? null}
        title="Saved: its webhook URL"
        closeLabel="I have copied it: open the workflow"
        onClose={() => webhookUrl && router.push(`/${teamId}/workflows/${webhookUrl.id}`)}
      />
    </div>
  );
}
