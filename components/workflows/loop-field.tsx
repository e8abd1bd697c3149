"use client";

import { useId, useState } from "react";
import { FieldProblem } from "@/components/workflows/field-problem";
import { referenceOf, referenceText, type PickableField } from "@/components/workflows/output-fields";

const CUSTOM = "__custom__";
const help = "mt-1 text-xs text-zinc-600 dark:text-zinc-400";

/** Fields by the group they belong to (a node's label), in order. */
export function grouped(fields: PickableField[]): [string, PickableField[]][] {
  const groups = new Map<string, PickableField[]>();
  for (const f of fields) groups.set(f.group, [...(groups.get(f.group) ?? []), f]);
  return [...groups];
}

/**
 * "For each row of…": the node runs once per item of a list an earlier node returned (its
 * `for_each`), picked from the lists of the earlier outputs, or typed as a reference when the
 * list is not among them (an operation that does not describe its output, the trigger's body).
 */
export function LoopField({
  value,
  lists,
  problem,
  onChange,
}: {
  /** The list's {{reference}}, or null: the node runs once. */
  value: string | null;
  lists: PickableField[];
  problem?: string;
  onChange: (next: string | null) => void;
}) {
  const id = useId();
  const ref = value === null ? null : referenceOf(value);
  const known = ref !== null && lists.some((f) => f.ref === ref);
  // Typing a reference keeps its box open even once the text names a listed list.
  const [typing, setTyping] = useState(value !== null && !known);
  const selected = value === null ? "" : typing || !known ? CUSTOM : referenceText(ref);
  const current = known ? lists.find((f) => f.ref === ref) : undefined;

  return (
    <div data-testid="node-loop">
      <label htmlFor={`${id}-select`} className="mb-1 block text-sm font-medium">
        For each row of…
      </label>
      <select
        id={`${id}-select`}
        className="input"
        value={selected}
        aria-describedby={[`${id}-help`, problem && `${id}-problem`].filter(Boolean).join(" ")}
        aria-invalid={problem && !typing ? true : undefined}
        onChange={(e) => {
          const v = e.target.value;
          setTyping(v === CUSTOM);
          onChange(v === "" ? null : v === CUSTOM ? (value !== null && !known ? value : "") : v);
        }}
      >
        <option value="">No loop: run once</option>
        {grouped(lists).map(([group, fields]) => (
          <optgroup key={group} label={group}>
            {fields.map((f) => (
              <option key={f.ref} value={referenceText(f.ref)}>
                {f.name} ({f.where})
              </option>
            ))}
          </optgroup>
        ))}
        <option value={CUSTOM}>Another list: type its reference…</option>
      </select>
      {selected === CUSTOM && (
        <div className="mt-2">
          <label htmlFor={`${id}-ref`} className="mb-1 block text-xs font-medium">
            The list&apos;s reference
          </label>
          <input
            id={`${id}-ref`}
            className="input font-mono text-xs"
            value={value ?? ""}
            placeholder="{{nodes.report.output.rows}}"
            spellCheck={false}
            autoComplete="off"
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
            onChange={(e) => onChange(e.target.value)}
          />
        </div>
      )}
      <FieldProblem id={`${id}-problem`} problem={problem} />
      <p id={`${id}-help`} className={help}>
        {value === null
          ? lists.length
            ? "Run this node once per row of a list an earlier node returns, e.g. each day of a report."
            : "Run this node once per row of a list an earlier node returns; the nodes before this one return no list the editor knows of."
          : current
            ? `Runs once per row of “${current.name}”, in order; its input and condition can use the row's fields. Later nodes read the list of the rows' results.`
            : "Runs once per item of the list, in order; its input and condition can use {{item}}, {{item.<field>}} and {{item_index}}."}
      </p>
    </div>
  );
}
