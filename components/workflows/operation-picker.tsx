"use client";

import { useId, useMemo, useState } from "react";
import { platformOf, type CatalogueIndex } from "@/components/workflows/catalogue";
import type { CatalogueOperation } from "@/lib/queries/operations";
import { plural } from "@/lib/text/plural";
import { RequiredMark } from "@/components/workflows/field-problem";

const BUILT_IN = "Built-in";

/**
 * The catalogue grouped by platform (the built-in utilities first), narrowed by a search of every
 * word in id, title and description.
 */
function groupsOf(operations: CatalogueOperation[], search: string, keep: string) {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const groups = new Map<string, CatalogueOperation[]>();
  for (const op of operations) {
    const text = `${op.id} ${op.title} ${op.description} ${platformOf(op)}`.toLowerCase();
    if (op.id !== keep && !words.every((w) => text.includes(w))) continue;
    const platform = platformOf(op);
    groups.set(platform, [...(groups.get(platform) ?? []), op]);
  }
  return [...groups].sort(([a], [b]) => (a === BUILT_IN ? -1 : b === BUILT_IN ? 1 : a.localeCompare(b)));
}

/**
 * A searchable operation select: a filter box above a native <select> whose options are grouped
 * by platform. The chosen operation stays listed whatever the filter.
 */
export function OperationPicker({
  catalogue,
  value,
  onChange,
  describedBy,
  invalid = false,
}: {
  catalogue: CatalogueIndex;
  value: string;
  onChange: (op: CatalogueOperation | undefined) => void;
  describedBy?: string;
  /** The last Save found a problem with it (described by `describedBy`). */
  invalid?: boolean;
}) {
  const id = useId();
  const [search, setSearch] = useState("");
  const groups = useMemo(() => groupsOf(catalogue.operations, search, value), [catalogue.operations, search, value]);
  const count = groups.reduce((n, [, ops]) => n + ops.length, 0);
  const known = catalogue.byId.has(value);

  return (
    <div>
      <div className="mb-1 flex items-baseline gap-2">
        <label htmlFor={`${id}-select`} className="text-sm font-medium">
          Operation
        </label>
        <RequiredMark />
      </div>
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-[minmax(10rem,14rem)_1fr]">
        <input
          type="search"
          className="input"
          placeholder="Filter: report, slack, note…"
          aria-label="Filter the operations"
          aria-controls={`${id}-select`}
          aria-describedby={`${id}-count`}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
        <select
          id={`${id}-select`}
          className="input"
          value={value}
          onChange={(e) => onChange(catalogue.byId.get(e.target.value))}
          aria-describedby={describedBy}
          aria-required="true"
          aria-invalid={invalid || undefined}
        >
          <option value="">{value ? "No operation" : "Choose an operation…"}</option>
          {value && !known && <option value={value}>{value} (not in the catalogue)</option>}
          {groups.map(([platform, ops]) => (
            <optgroup key={platform} label={platform === BUILT_IN ? "Built-in (no connection needed)" : platform}>
              {ops.map((op) => (
                <option key={op.id} value={op.id}>
                  {op.title} · {op.id}
                  {op.kind === "write" ? " (writes)" : ""}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </div>
      <p id={`${id}-count`} className="sr-only" aria-live="polite">
        {search ? plural(count, "operation matches", "operations match") : ""}
      </p>
    </div>
  );
}
