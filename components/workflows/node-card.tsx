"use client";

import Link from "next/link";
import { useId } from "react";
import { KindBadge } from "@/components/operations/kind-badge";
import { isBuiltIn, type CatalogueIndex } from "@/components/workflows/catalogue";
import { OperationPicker } from "@/components/workflows/operation-picker";
import { InputField } from "@/components/workflows/input-field";
import { withOperation, type NodeDraft, type NodeFields } from "@/components/workflows/editor-model";
import { FieldProblem, RequiredMark } from "@/components/workflows/field-problem";
import { ConditionBuilder } from "@/components/workflows/condition-builder";
import { LoopField } from "@/components/workflows/loop-field";
import { referenceText, type PickableField } from "@/components/workflows/output-fields";
import { connectionLabel } from "@/lib/queries/operations";
import { RUN_VARIABLES } from "@/lib/workflows/templates";
import { plural } from "@/lib/text/plural";

const labelRow = "mb-1 flex items-baseline gap-2";
const help = "mt-1 text-xs text-zinc-600 dark:text-zinc-400";
const link = "font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300";

type Props = {
  teamId: string;
  index: number;
  count: number;
  draft: NodeDraft;
  /** The nodes before this one: the only ones whose output it can use. */
  earlier: NodeDraft[];
  /** The fields its condition, loop and input can use: earlier outputs, and the loop's row. */
  fields: NodeFields;
  catalogue: CatalogueIndex;
  /** What is wrong with the connection this node had when the editor opened (deleted, needs re-authorization). */
  connectionProblem: string | null;
  /** The last Save's problems of this node, by field ("label", "connection_id", "input.template"). */
  problems: Record<string, string>;
  onChange: (next: NodeDraft) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
};

/** One node of the editor: id, label, operation, connection, its input fields, and the references it may use. */
export function NodeCard({
  teamId,
  index,
  count,
  draft,
  earlier,
  fields,
  catalogue,
  connectionProblem,
  problems,
  onChange,
  onMove,
  onRemove,
}: Props) {
  /** A field's aria attributes: invalid when the last Save found a problem in it, described by it. */
  const invalid = (field: string, help?: string) => ({
    "aria-invalid": problems[field] ? true : undefined,
    "aria-describedby": [help, problems[field] && `${id}-${field}-problem`].filter(Boolean).join(" ") || undefined,
  });
  const problemOf = (field: string) => <FieldProblem id={`${id}-${field}-problem`} problem={problems[field]} />;
  const id = useId();
  const op = catalogue.byId.get(draft.operation_id);
  const name = draft.label.trim() || draft.id || `node ${index + 1}`;
  const set = (patch: Partial<NodeDraft>) => onChange({ ...draft, ...patch });
  const connections = op?.connections ?? [];
  const listed = connections.some((c) => c.id === draft.connection_id);
  const typeNames = [...new Set(op?.connection_types.map((t) => t.name) ?? [])].join(" or ");

  return (
    <li data-node-key={draft.key} data-testid="node-card" className="card p-4">
      <div role="group" aria-labelledby={`${id}-title`}>
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h3
            id={`${id}-title`}
            tabIndex={-1}
            data-focus="title"
            className="min-w-0 truncate font-semibold focus:outline-none"
          >
            <span className="text-zinc-500 dark:text-zinc-400">Node {index + 1}</span> · {name}
          </h3>
          <div className="flex gap-1">
            <button
              type="button"
              className="btn-secondary px-2.5 py-1"
              data-focus="up"
              onClick={() => onMove(-1)}
              disabled={index === 0}
              aria-label={`Move node ${index + 1} (${name}) up`}
            >
              <span aria-hidden="true">↑</span> Up
            </button>
            <button
              type="button"
              className="btn-secondary px-2.5 py-1"
              data-focus="down"
              onClick={() => onMove(1)}
              disabled={index === count - 1}
              aria-label={`Move node ${index + 1} (${name}) down`}
            >
              <span aria-hidden="true">↓</span> Down
            </button>
            <button
              type="button"
              className="btn-secondary px-2.5 py-1 text-rose-700 dark:text-rose-300"
              onClick={onRemove}
              disabled={count === 1}
              aria-label={`Remove node ${index + 1} (${name})`}
            >
              Remove
            </button>
          </div>
        </div>

        <div className="grid grid-cols-1 gap-4 md:grid-cols-[minmax(0,14rem)_1fr]">
          <div>
            <div className={labelRow}>
              <label htmlFor={`${id}-id`} className="text-sm font-medium">
                ID
              </label>
              <RequiredMark />
            </div>
            <input
              id={`${id}-id`}
              data-focus="id"
              className="input font-mono"
              value={draft.id}
              maxLength={40}
              spellCheck={false}
              autoComplete="off"
              aria-required="true"
              {...invalid("id", `${id}-id-help`)}
              onChange={(e) => set({ id: e.target.value.toLowerCase().replace(/[^a-z0-9_]/g, "_") })}
            />
            {problemOf("id")}
            <p id={`${id}-id-help`} className={help}>
              a–z, 0–9 and _; later nodes use its output as{" "}
              <code className="font-mono">{`{{nodes.${draft.id || "id"}.output}}`}</code>.
            </p>
          </div>
          <div>
            <div className={labelRow}>
              <label htmlFor={`${id}-label`} className="text-sm font-medium">
                Label
              </label>
              <RequiredMark />
            </div>
            <input
              id={`${id}-label`}
              data-focus="label"
              className="input"
              value={draft.label}
              maxLength={200}
              placeholder="Sessions, last 7 days"
              aria-required="true"
              {...invalid("label")}
              onChange={(e) => set({ label: e.target.value })}
            />
            {problemOf("label")}
          </div>

          <div className="md:col-span-2">
            <OperationPicker
              catalogue={catalogue}
              value={draft.operation_id}
              onChange={(next) => onChange(withOperation(draft, next))}
              describedBy={invalid("operation_id", op ? `${id}-op-help` : undefined)["aria-describedby"]}
              invalid={Boolean(problems.operation_id)}
            />
            {problemOf("operation_id")}
            {op && (
              <div id={`${id}-op-help`} className={`${help} flex flex-wrap items-center gap-x-2 gap-y-1`}>
                <KindBadge kind={op.kind} requiresApproval={false} />
                <span>{op.credits ? `${plural(op.credits, "credit")} per run` : "no credits"}</span>
                <span className="min-w-0">{op.description.split(/(?<=[a-z0-9)]\.)\s+(?=[A-Z])/)[0]}</span>
              </div>
            )}
            {op?.kind === "write" && (
              <div className="mt-2 space-y-2">
                <p className="text-xs font-medium text-amber-800 dark:text-amber-200">
                  {draft.approval
                    ? `This node writes: each write waits for a person's approval${draft.forEach !== null ? " (each row apart)" : ""}.`
                    : "This node writes: each run makes this change without asking anyone."}
                </p>
                <Toggle
                  id={`${id}-approval`}
                  label="Ask for approval before writing"
                  checked={draft.approval}
                  onChange={(approval) => set({ approval })}
                  problem={problems.approval}
                >
                  When a run reaches this node, it files a request on the Approvals page and waits; the write runs only
                  when a team member approves it{draft.forEach !== null ? ", one row after another" : ""}. A workflow
                  whose every write asks first can be activated by any member, not only an owner.
                </Toggle>
              </div>
            )}
          </div>

          {op && !isBuiltIn(op) && (
            <div className="md:col-span-2">
              <div className={labelRow}>
                <label htmlFor={`${id}-connection`} className="text-sm font-medium">
                  Connection
                </label>
                <RequiredMark />
              </div>
              <select
                id={`${id}-connection`}
                className="input"
                value={draft.connection_id}
                onChange={(e) => set({ connection_id: e.target.value })}
                aria-required="true"
                aria-describedby={invalid("connection_id", `${id}-connection-help`)["aria-describedby"]}
                aria-invalid={(draft.connection_id !== "" && !listed) || problems.connection_id ? true : undefined}
              >
                <option value="">{connections.length ? "Choose a connection…" : "No connection to choose"}</option>
                {connections.map((c) => (
                  <option key={c.id} value={c.id}>
                    {connectionLabel(c)} · {catalogue.typeName(c.type)}
                  </option>
                ))}
                {draft.connection_id && !listed && (
                  <option value={draft.connection_id}>{draft.connection_id} (deleted, or not yours to use)</option>
                )}
              </select>
              {problemOf("connection_id")}
              <div id={`${id}-connection-help`} className={help}>
                {connections.length === 0 ? (
                  <p className="text-amber-800 dark:text-amber-200">
                    You have no {typeNames} connection yet.{" "}
                    <Link href={`/${teamId}/connections`} className={link}>
                      Add a connection
                    </Link>
                    , then come back to this node.
                  </p>
                ) : (
                  <p>Runs on {typeNames}: your connections of that type.</p>
                )}
                {connectionProblem && draft.connection_id && (
                  <p
                    className="mt-1 font-medium text-rose-700 dark:text-rose-300"
                    data-testid="node-connection-problem"
                  >
                    <span aria-hidden="true">⚠ </span>
                    {connectionProblem}
                  </p>
                )}
              </div>
            </div>
          )}
          {op && isBuiltIn(op) && <p className={`${help} md:col-span-2`}>Built-in: needs no connection.</p>}

          <div
            className="space-y-4 rounded-lg border border-zinc-200 p-3 md:col-span-2 dark:border-zinc-800"
            role="group"
            aria-labelledby={`${id}-flow-title`}
          >
            <h4 id={`${id}-flow-title`} className="text-sm font-semibold">
              When it runs
            </h4>
            <LoopField
              value={draft.forEach}
              lists={fields.lists}
              problem={problems.for_each}
              onChange={(forEach) => set({ forEach })}
            />
            <ConditionBuilder
              value={draft.condition}
              fields={fields}
              loops={draft.forEach !== null}
              problems={problems}
              onChange={(condition) => set({ condition })}
            />
            <Toggle
              id={`${id}-continue`}
              label="Continue if this step fails"
              checked={draft.continueOnError}
              onChange={(continueOnError) => set({ continueOnError })}
              problem={problems.continue_on_error}
            >
              {draft.forEach !== null
                ? "A failed row does not stop the others or the run; later nodes read its error in its place."
                : "The run goes on after a failure; later nodes read the error as this node's output."}
            </Toggle>
          </div>

          <div className="md:col-span-2">
            <h4 className="mb-2 text-sm font-semibold">Input</h4>
            {!draft.operation_id ? (
              <p className="text-sm text-zinc-600 dark:text-zinc-400">Choose an operation to fill in its input.</p>
            ) : !op ? (
              <p className="text-sm text-rose-700 dark:text-rose-300">
                {draft.operation_id} is not in the catalogue: choose another operation.
              </p>
            ) : op.fields.length === 0 ? (
              <p className="text-sm text-zinc-600 dark:text-zinc-400">This operation takes no input.</p>
            ) : (
              <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
                {op.fields.map((f) => (
                  <InputField
                    key={f.name}
                    op={op}
                    field={f}
                    value={draft.values[f.name] ?? ""}
                    problem={problems[`input.${f.name}`]}
                    onChange={(text) => set({ values: { ...draft.values, [f.name]: text } })}
                  />
                ))}
              </div>
            )}
            {problemOf("input")}
            {Object.keys(draft.extra).length > 0 && (
              <p className="mt-2 text-xs text-amber-800 dark:text-amber-200">
                Its input also holds {Object.keys(draft.extra).join(", ")}, which{" "}
                {op ? "this operation has no field for" : "is kept as it is"}.{" "}
                <button
                  type="button"
                  className="font-medium underline underline-offset-2"
                  onClick={() => set({ extra: {} })}
                >
                  Remove {Object.keys(draft.extra).length === 1 ? "it" : "them"}
                </button>
              </p>
            )}
            <References earlier={earlier} fields={fields} loops={draft.forEach !== null} />
          </div>
        </div>
      </div>
    </li>
  );
}

/** A checkbox with its label and what it does; the last Save's problem with it beside it. */
function Toggle({
  id,
  label,
  checked,
  onChange,
  problem,
  children,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  problem?: string;
  children: React.ReactNode;
}) {
  return (
    <div className="flex items-start gap-2">
      <input
        id={id}
        type="checkbox"
        className="mt-0.5 size-4 shrink-0 accent-indigo-600"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        aria-describedby={[`${id}-help`, problem && `${id}-problem`].filter(Boolean).join(" ")}
        aria-invalid={problem ? true : undefined}
      />
      <div className="min-w-0 text-sm">
        <label htmlFor={id} className="font-medium">
          {label}
        </label>
        <p id={`${id}-help`} className="text-xs text-zinc-600 dark:text-zinc-400">
          {children}
        </p>
        <FieldProblem id={`${id}-problem`} problem={problem} />
      </div>
    </div>
  );
}

function FieldReference({ field }: { field: PickableField }) {
  return (
    <li className="flex flex-wrap gap-x-2">
      <code className="font-mono text-xs text-indigo-700 dark:text-indigo-300">{referenceText(field.ref)}</code>
      <span className="text-xs text-zinc-600 dark:text-zinc-400">{field.name}</span>
    </li>
  );
}

/**
 * The references this node's input may hold: the run's variables, the outputs of the nodes
 * before it (their fields, when their operation describes them), and in a loop the row's fields.
 */
function References({ earlier, fields, loops }: { earlier: NodeDraft[]; fields: NodeFields; loops: boolean }) {
  const ids = earlier.map((n) => n.id).filter(Boolean);
  return (
    <details
      className="mt-3 rounded-lg border border-zinc-200 text-sm dark:border-zinc-800"
      data-testid="node-references"
    >
      <summary className="cursor-pointer rounded-lg px-3 py-2 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500">
        <span className="font-medium">References you can use here</span>
        <span className="text-zinc-600 dark:text-zinc-400">
          {" "}
          · {Object.keys(RUN_VARIABLES).length} run variables ·{" "}
          {ids.length ? `outputs of ${ids.join(", ")}` : "no earlier nodes"}
          {loops ? " · the row's fields" : ""}
        </span>
      </summary>
      <div className="space-y-2 border-t border-zinc-200 px-3 py-2 dark:border-zinc-800">
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Write them inside any text of the input. A field that is exactly one reference takes its value as it is (a
          list of rows stays a list).
        </p>
        {loops && (
          <div data-testid="node-references-item">
            <p className="text-xs font-semibold">Each row of the loop</p>
            <ul className="space-y-1">
              {fields.item.map((f) => (
                <FieldReference key={f.ref} field={f} />
              ))}
            </ul>
          </div>
        )}
        <ul className="space-y-1">
          {Object.entries(RUN_VARIABLES).map(([name, description]) => (
            <li key={name} className="flex flex-wrap gap-x-2">
              <code className="font-mono text-xs text-indigo-700 dark:text-indigo-300">{`{{${name}}}`}</code>
              <span className="text-xs text-zinc-600 dark:text-zinc-400">{description}</span>
            </li>
          ))}
          {earlier.map((n) =>
            n.id ? (
              <li key={n.key}>
                <div className="flex flex-wrap gap-x-2">
                  <code className="font-mono text-xs text-indigo-700 dark:text-indigo-300">{`{{nodes.${n.id}.output}}`}</code>
                  <span className="text-xs text-zinc-600 dark:text-zinc-400">
                    the output of {n.label || n.id}
                    {n.operation_id ? ` (${n.operation_id})` : ""}; one field of it as{" "}
                    <code className="font-mono">{`{{nodes.${n.id}.output.field}}`}</code>
                  </span>
                </div>
                {fields.earlier.some((f) => f.ref.startsWith(`nodes.${n.id}.output.`)) && (
                  <ul className="mt-1 space-y-1 border-l border-zinc-200 pl-3 dark:border-zinc-800">
                    {fields.earlier
                      .filter((f) => f.ref.startsWith(`nodes.${n.id}.output.`))
                      .map((f) => (
                        <FieldReference key={f.ref} field={f} />
                      ))}
                  </ul>
                )}
              </li>
            ) : null,
          )}
        </ul>
        {!ids.length && (
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            The first node can use only the run variables; later nodes can use its output.
          </p>
        )}
      </div>
    </details>
  );
}
