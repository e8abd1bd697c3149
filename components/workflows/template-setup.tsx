"use client";

import Link from "next/link";
import { useId, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { ActiveSwitch, WriteNote, type WriteNode } from "@/components/workflows/write-note";
import { SaveProblems } from "@/components/workflows/save-problems";
import { WorkflowEditor } from "@/components/workflows/workflow-editor";
import { describeSchedule } from "@/components/workflows/schedule-words";
import type { CatalogueIndex } from "@/components/workflows/catalogue";
import { connectionLabel } from "@/lib/queries/operations";
import { useSaveWorkflow } from "@/lib/queries/workflows";
import { instantiateTemplate, type WorkflowTemplate } from "@/lib/workflows/workflow-templates";

const label = "mb-1 block text-sm font-medium";
const help = "mt-1 text-xs text-zinc-600 dark:text-zinc-400";
const link = "font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300";

/**
 * A template made the team's own: a connection for each of its slots and a value for each of
 * its fields, then saved as it is (two clicks from the gallery) or opened in the editor first.
 */
export function TemplateSetup({
  teamId,
  isOwner,
  catalogue,
  template,
}: {
  teamId: string;
  isOwner: boolean;
  catalogue: CatalogueIndex;
  template: WorkflowTemplate;
}) {
  const id = useId();
  const router = useRouter();
  const [name, setName] = useState(template.name);
  // A slot the viewer has exactly one connection for is filled in already.
  const [slots, setSlots] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      template.connections.map((slot) => {
        const candidates = catalogue.connections.filter((c) => slot.types.includes(c.type));
        return [slot.key, candidates.length === 1 ? candidates[0].id : ""];
      }),
    ),
  );
  const [fields, setFields] = useState<Record<string, string>>({});
  const [active, setActive] = useState(true);
  const [editing, setEditing] = useState(false);
  const [missing, setMissing] = useState<string[]>([]);
  const save = useSaveWorkflow(teamId);
  const problemsRef = useRef<HTMLDivElement>(null);

  const nodes = instantiateTemplate(template, slots, fields);
  // A write with an approval step waits for a person's yes each time, so a member may activate it (CONTRACT §13).
  const writes: WriteNode[] = nodes.flatMap((n) => {
    const op = catalogue.byId.get(n.operation_id);
    return op?.kind === "write" && n.approval !== "required"
      ? [
          {
            id: n.id,
            label: n.label,
            operation: op.id,
            connection: n.connection_id ? catalogue.describeConnection(n.connection_id) : null,
          },
        ]
      : [];
  });
  const lockedReason =
    !isOwner && writes.length
      ? "Only a team owner can activate a workflow with write nodes: it is saved inactive; ask an owner to activate it."
      : null;
  const timezone = template.timezone ?? "UTC";

  if (editing) {
    return (
      <WorkflowEditor
        teamId={teamId}
        isOwner={isOwner}
        catalogue={catalogue}
        initial={{
          name,
          nodes,
          schedule: template.schedule,
          timezone: template.timezone,
          active: lockedReason ? false : active,
          ...(template.events && { trigger: { type: "event", events: template.events } }),
        }}
        cancelHref={`/${teamId}/workflows/templates`}
      />
    );
  }

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const empty = [
      ...template.connections.filter((s) => !slots[s.key]).map((s) => s.label),
      ...template.fields.filter((f) => !fields[f.key]?.trim()).map((f) => f.label),
    ];
    setMissing(empty);
    if (empty.length) {
      requestAnimationFrame(() => problemsRef.current?.focus());
      return;
    }
    save.mutate(
      {
        name: name.trim(),
        nodes,
        schedule: template.schedule,
        timezone: template.schedule ? timezone : null,
        active: lockedReason ? false : active,
        ...(template.events && { trigger: "event" as const, events: template.events }),
      },
      {
        onSuccess: (saved) => router.push(`/${teamId}/workflows/${saved.id}`),
        onError: () => requestAnimationFrame(() => problemsRef.current?.focus()),
      },
    );
  };

  return (
    <form onSubmit={submit} className="space-y-4" aria-label={`Set up ${template.name}`} noValidate>
      <section className="card space-y-4 p-4 sm:p-5" aria-labelledby={`${id}-what`}>
        <div>
          <h2 id={`${id}-what`} className="text-base font-semibold">
            {template.name}
          </h2>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{template.description}</p>
        </div>
        <ol className="space-y-1 text-sm" aria-label="Its nodes">
          {template.nodes.map((n, i) => {
            const op = catalogue.byId.get(n.operation_id);
            return (
              <li key={n.id} className="flex flex-wrap gap-x-2">
                <span className="text-zinc-500 dark:text-zinc-400">{i + 1}.</span>
                <span className="font-medium">{n.label}</span>
                <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{n.operation_id}</span>
                {op?.kind === "write" && (
                  <span className="text-xs font-medium text-amber-800 dark:text-amber-200">
                    {n.approval === "required" ? "writes once approved" : "writes"}
                  </span>
                )}
                {n.for_each !== undefined && (
                  <span className="text-xs text-zinc-600 dark:text-zinc-400">for each row</span>
                )}
                {n.when !== undefined && <span className="text-xs text-zinc-600 dark:text-zinc-400">conditional</span>}
              </li>
            );
          })}
        </ol>
        <p className="text-sm">
          <span className="text-zinc-600 dark:text-zinc-400">Runs: </span>
          {template.schedule
            ? `${describeSchedule(template.schedule)} (${timezone})`
            : template.events
              ? `on each ${template.events.join(" or ")} event`
              : "when started"}{" "}
          <span className="text-zinc-600 dark:text-zinc-400">(change it in the editor)</span>
        </p>
      </section>

      <section className="card space-y-4 p-4 sm:p-5" aria-labelledby={`${id}-yours`}>
        <h2 id={`${id}-yours`} className="text-base font-semibold">
          Your connections and settings
        </h2>
        <div className="grid max-w-3xl grid-cols-1 gap-4 md:grid-cols-2">
          <div className="md:col-span-2">
            <label htmlFor={`${id}-name`} className={label}>
              Name
            </label>
            <input
              id={`${id}-name`}
              className="input"
              value={name}
              maxLength={200}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          {template.connections.map((slot) => {
            const candidates = catalogue.connections.filter((c) => slot.types.includes(c.type));
            const types = [...new Set(slot.types.map(catalogue.typeName))].join(", ");
            return (
              <div key={slot.key}>
                <label htmlFor={`${id}-slot-${slot.key}`} className={label}>
                  {slot.label}
                </label>
                <select
                  id={`${id}-slot-${slot.key}`}
                  className="input"
                  value={slots[slot.key] ?? ""}
                  onChange={(e) => setSlots({ ...slots, [slot.key]: e.target.value })}
                  aria-describedby={`${id}-slot-${slot.key}-help`}
                  aria-invalid={missing.includes(slot.label) || undefined}
                >
                  <option value="">{candidates.length ? "Choose a connection…" : "No connection to choose"}</option>
                  {candidates.map((c) => (
                    <option key={c.id} value={c.id}>
                      {connectionLabel(c)} · {catalogue.typeName(c.type)}
                    </option>
                  ))}
                </select>
                <div id={`${id}-slot-${slot.key}-help`} className={help}>
                  {candidates.length ? (
                    <>One of your {types} connections.</>
                  ) : (
                    <p className="text-amber-800 dark:text-amber-200">
                      You have no {types} connection yet.{" "}
                      <Link href={`/${teamId}/connections`} className={link}>
                        Add a connection
                      </Link>
                      , then come back.
                    </p>
                  )}
                </div>
              </div>
            );
          })}
          {template.fields.map((f) => (
            <div key={f.key}>
              <label htmlFor={`${id}-field-${f.key}`} className={label}>
                {f.label}
              </label>
              <input
                id={`${id}-field-${f.key}`}
                className="input"
                value={fields[f.key] ?? ""}
                placeholder={f.placeholder}
                inputMode={f.numeric ? "decimal" : undefined}
                onChange={(e) => setFields({ ...fields, [f.key]: e.target.value })}
                aria-describedby={f.hint ? `${id}-field-${f.key}-help` : undefined}
                aria-invalid={missing.includes(f.label) || undefined}
              />
              {f.hint && (
                <p id={`${id}-field-${f.key}-help`} className={help}>
                  {f.hint}
                </p>
              )}
            </div>
          ))}
        </div>
        <WriteNote writes={writes} isOwner={isOwner} />
        <ActiveSwitch
          checked={active}
          onChange={setActive}
          lockedReason={lockedReason}
          manual={!template.schedule && !template.events}
          writes={writes.length > 0}
        />
      </section>

      <div className="space-y-3">
        <div ref={problemsRef} tabIndex={-1} className="focus:outline-none">
          {missing.length > 0 ? (
            <SaveProblems problems={missing.map((m) => `${m}: choose or fill it in`)} ids={[]} />
          ) : save.isError ? (
            <SaveProblems error={save.error} ids={nodes.map((n) => n.id)} />
          ) : null}
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="submit" className="btn-primary" disabled={save.isPending || save.isSuccess}>
            {save.isPending ? "Saving…" : "Create workflow"}
          </button>
          <button type="button" className="btn-secondary" onClick={() => setEditing(true)}>
            Review in the editor
          </button>
          <Link href={`/${teamId}/workflows/templates`} className="btn-secondary">
            Cancel
          </Link>
        </div>
      </div>
    </form>
  );
}
