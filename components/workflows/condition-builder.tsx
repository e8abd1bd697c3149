"use client";

import { useId, useRef, useState } from "react";
import { FieldProblem } from "@/components/workflows/field-problem";
import { grouped } from "@/components/workflows/loop-field";
import {
  blankRow,
  conditionWords,
  NO_VALUE_OPS,
  noCondition,
  OP_WORDS,
  opsFor,
  type ConditionDraft,
  type ConditionRow,
} from "@/components/workflows/condition-model";
import type { NodeFields } from "@/components/workflows/editor-model";
import { referenceOf, referenceText, type PickableField } from "@/components/workflows/output-fields";
import type { ConditionOp } from "@/lib/schemas/workflows";

const CUSTOM = "__custom__";
const help = "mt-1 text-xs text-zinc-600 dark:text-zinc-400";
const small = "mb-1 block text-xs font-medium";

/**
 * "Run only when…": rows of a field (from an earlier node's output, or the loop's row), an
 * operator in words and a value, joined by all or any, with the condition read back in a
 * sentence. Writes the node's `when`; the node always runs while there is no row.
 */
export function ConditionBuilder({
  value,
  fields,
  loops,
  problems,
  onChange,
}: {
  value: ConditionDraft;
  fields: NodeFields;
  /** The node loops: the condition is checked for each row. */
  loops: boolean;
  /** The last Save's problems: "when" for the whole condition, "when.<row>.<left|op|right>" for a row's. */
  problems: Record<string, string>;
  onChange: (next: ConditionDraft) => void;
}) {
  const id = useId();
  const addRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const options = [...fields.earlier, ...fields.item];

  if (value.mode === "json")
    return (
      <fieldset data-testid="node-condition">
        <legend className="mb-1 text-sm font-medium">Run only when…</legend>
        <label htmlFor={`${id}-json`} className={small}>
          The condition, as JSON
        </label>
        <textarea
          id={`${id}-json`}
          className="input min-h-24 font-mono text-xs"
          value={value.text}
          spellCheck={false}
          aria-invalid={problems.when ? true : undefined}
          aria-describedby={[`${id}-json-help`, problems.when && `${id}-problem`].filter(Boolean).join(" ")}
          onChange={(e) => onChange({ mode: "json", text: e.target.value })}
        />
        <FieldProblem id={`${id}-problem`} problem={problems.when} />
        <p id={`${id}-json-help`} className={help}>
          This condition nests groups (or a “not”) that the builder does not show, so it is shown as it is saved.{" "}
          <button
            type="button"
            className="font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300"
            onClick={() => onChange(noCondition())}
          >
            Clear it and use the builder
          </button>
        </p>
      </fieldset>
    );

  const rows = value.rows;
  const setRows = (next: ConditionRow[]) => onChange({ ...value, rows: next });
  const setRow = (key: string, patch: Partial<ConditionRow>) =>
    setRows(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const add = () => {
    setRows([...rows, blankRow()]);
    // The new row's field picker takes the focus once it is there.
    requestAnimationFrame(() =>
      listRef.current?.querySelector<HTMLElement>("li:last-child select")?.focus({ preventScroll: false }),
    );
  };
  const remove = (key: string) => {
    setRows(rows.filter((r) => r.key !== key));
    requestAnimationFrame(() => addRef.current?.focus());
  };
  const words = conditionWords(value, fields.byRef);

  return (
    <fieldset data-testid="node-condition" aria-describedby={`${id}-preview`}>
      <legend className="mb-1 text-sm font-medium">Run only when…</legend>
      {rows.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {loops ? "Every row runs: no condition." : "Always runs: no condition."}
        </p>
      ) : (
        <>
          {rows.length > 1 && (
            <div className="mb-2 flex flex-wrap items-center gap-2 text-sm">
              <label htmlFor={`${id}-join`}>Run when</label>
              <select
                id={`${id}-join`}
                className="input w-auto"
                value={value.join}
                onChange={(e) => onChange({ ...value, join: e.target.value as "all" | "any" })}
              >
                <option value="all">all of these hold</option>
                <option value="any">any of these holds</option>
              </select>
            </div>
          )}
          <ol ref={listRef} className="space-y-2">
            {rows.map((row, i) => (
              <ConditionRowFields
                key={row.key}
                index={i}
                row={row}
                options={options}
                fields={fields}
                problems={problems}
                onChange={(patch) => setRow(row.key, patch)}
                onRemove={() => remove(row.key)}
              />
            ))}
          </ol>
        </>
      )}
      {problems.when && <FieldProblem id={`${id}-problem`} problem={problems.when} />}
      <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1">
        <button
          ref={addRef}
          type="button"
          className="btn-secondary px-2.5 py-1"
          onClick={add}
          disabled={rows.length >= 20}
        >
          <span aria-hidden="true">+</span> {rows.length ? "Add another condition" : "Add a condition"}
        </button>
        {options.length === 0 && (
          <span className="text-xs text-zinc-600 dark:text-zinc-400">
            No earlier node returns fields the editor knows of: choose “Another value” to type a reference.
          </span>
        )}
      </div>
      <p
        id={`${id}-preview`}
        data-testid="condition-preview"
        aria-live="polite"
        className={`mt-2 text-sm ${words ? "text-zinc-800 dark:text-zinc-200" : "text-zinc-600 dark:text-zinc-400"}`}
      >
        {words ? (
          <>
            {loops ? "Only the rows where " : "Only when "}
            {words.map((w, i) => (
              <span key={i}>
                {i > 0 && (value.join === "all" ? " and " : " or ")}
                <em className="font-semibold not-italic text-indigo-800 dark:text-indigo-200">{w.name}</em> {w.rest}
              </span>
            ))}
            {loops
              ? "; the other rows are skipped."
              : "; otherwise this node is skipped and the nodes after it still run."}
          </>
        ) : rows.length ? (
          "Choose a field, an operator and a value to read the condition here."
        ) : null}
      </p>
    </fieldset>
  );
}

function ConditionRowFields({
  index,
  row,
  options,
  fields,
  problems,
  onChange,
  onRemove,
}: {
  index: number;
  row: ConditionRow;
  options: PickableField[];
  fields: NodeFields;
  problems: Record<string, string>;
  onChange: (patch: Partial<ConditionRow>) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const ref = referenceOf(row.left);
  const field = ref === null ? undefined : fields.byRef(ref);
  const [typing, setTyping] = useState(row.left !== "" && !field);
  const selected = row.left === "" && !typing ? "" : typing || !field ? CUSTOM : referenceText(field.ref);
  const kind = field?.kind ?? "any";
  const ops = opsFor(kind);
  const shownOps = ops.includes(row.op) ? ops : [row.op, ...ops];
  const problem = (part: "left" | "op" | "right") => problems[`when.${index}.${part}`];
  const aria = (part: "left" | "op" | "right") => ({
    "aria-invalid": problem(part) ? true : undefined,
    "aria-describedby": problem(part) ? `${id}-${part}-problem` : undefined,
  });
  const pick = (v: string) => {
    setTyping(v === CUSTOM);
    if (v === CUSTOM) return onChange({ left: "" });
    const next = v === "" ? undefined : fields.byRef(referenceOf(v) ?? "");
    const nextOps = opsFor(next?.kind ?? "any");
    onChange({ left: v, ...(!nextOps.includes(row.op) && { op: nextOps[0] }) });
  };
  const number = kind === "number" || ["gt", "gte", "lt", "lte"].includes(row.op);

  return (
    <li data-testid="condition-row">
      <div
        role="group"
        aria-label={`Condition ${index + 1}`}
        className="grid grid-cols-1 gap-2 rounded-lg border border-zinc-200 p-2 sm:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-start dark:border-zinc-800"
      >
        <div className="min-w-0">
          <label htmlFor={`${id}-left`} className={small}>
            Field
          </label>
          <select
            id={`${id}-left`}
            className="input"
            value={selected}
            onChange={(e) => pick(e.target.value)}
            {...aria("left")}
          >
            <option value="">Choose a field…</option>
            {grouped(options).map(([group, list]) => (
              <optgroup key={group} label={group}>
                {list.map((f) => (
                  <option key={f.ref} value={referenceText(f.ref)}>
                    {f.name} ({f.where})
                  </option>
                ))}
              </optgroup>
            ))}
            <option value={CUSTOM}>Another value: type a reference…</option>
          </select>
          {selected === CUSTOM && (
            <input
              aria-label={`Condition ${index + 1}: the reference to compare`}
              className="input mt-2 font-mono text-xs"
              value={row.left}
              placeholder="{{trigger.body.amount}}"
              spellCheck={false}
              autoComplete="off"
              onChange={(e) => onChange({ left: e.target.value })}
              {...aria("left")}
            />
          )}
          <FieldProblem id={`${id}-left-problem`} problem={problem("left")} />
        </div>
        <div className="min-w-0">
          <label htmlFor={`${id}-op`} className={small}>
            Operator
          </label>
          <select
            id={`${id}-op`}
            className="input"
            value={row.op}
            onChange={(e) => onChange({ op: e.target.value as ConditionOp })}
            {...aria("op")}
          >
            {shownOps.map((op) => (
              <option key={op} value={op}>
                {OP_WORDS[op]}
              </option>
            ))}
          </select>
          <FieldProblem id={`${id}-op-problem`} problem={problem("op")} />
        </div>
        <div className="min-w-0">
          {NO_VALUE_OPS.has(row.op) ? (
            <p className="text-xs text-zinc-600 sm:mt-7 dark:text-zinc-400">No value needed.</p>
          ) : (
            <>
              <label htmlFor={`${id}-right`} className={small}>
                Value
              </label>
              {kind === "boolean" ? (
                <select
                  id={`${id}-right`}
                  className="input"
                  value={row.right}
                  onChange={(e) => onChange({ right: e.target.value })}
                  {...aria("right")}
                >
                  <option value="">Choose…</option>
                  <option value="true">true</option>
                  <option value="false">false</option>
                  {row.right !== "" && row.right !== "true" && row.right !== "false" && (
                    <option value={row.right}>{row.right}</option>
                  )}
                </select>
              ) : (
                <input
                  id={`${id}-right`}
                  className={`input ${number ? "tabular-nums" : ""}`}
                  inputMode={number ? "decimal" : undefined}
                  value={row.right}
                  placeholder={number ? "1000" : kind === "list" ? "a value in the list" : "a text"}
                  spellCheck={false}
                  autoComplete="off"
                  onChange={(e) => onChange({ right: e.target.value })}
                  {...aria("right")}
                />
              )}
              <FieldProblem id={`${id}-right-problem`} problem={problem("right")} />
            </>
          )}
        </div>
        <div className="sm:mt-5">
          <button
            type="button"
            className="btn-secondary px-2.5 py-1 text-rose-700 dark:text-rose-300"
            onClick={onRemove}
            aria-label={`Remove condition ${index + 1}`}
          >
            Remove
          </button>
        </div>
      </div>
    </li>
  );
}
