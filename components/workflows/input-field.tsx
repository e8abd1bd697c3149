"use client";

import { useId } from "react";
import { exampleOf, fieldKind, type Field } from "@/components/workflows/editor-model";
import type { CatalogueOperation } from "@/lib/queries/operations";
import { FieldProblem } from "@/components/workflows/field-problem";

const show = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/**
 * One input field of a node, by its type: a text (one line or several), a number, true/false,
 * one of the choices, or JSON for lists and objects; the operation's example is the placeholder.
 * Every kind also takes a reference as text.
 */
export function InputField({
  op,
  field,
  value,
  problem,
  onChange,
}: {
  op: CatalogueOperation;
  field: Field;
  value: string;
  /** What the last Save found wrong with it, shown beside it. */
  problem?: string;
  onChange: (text: string) => void;
}) {
  const id = useId();
  const example = exampleOf(op, field);
  const kind = fieldKind(field, (op.example as Record<string, unknown> | null)?.[field.name]);
  const helpId = `${id}-help`;
  const common = {
    id,
    "aria-describedby": problem ? `${helpId} ${id}-problem` : helpId,
    "aria-required": field.required || undefined,
    "aria-invalid": problem ? true : undefined,
    spellCheck: false,
    autoComplete: "off",
  } as const;
  // A reference or a value the choices do not hold is kept as typed, not silently dropped.
  const offList = (options: string[]) => value !== "" && !options.includes(value);

  let control: React.ReactNode;
  if (kind === "boolean") {
    const options = ["true", "false"];
    control = (
      <select {...common} className="input" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{field.default !== undefined ? `Default (${show(field.default)})` : "Not set"}</option>
        <option value="true">true</option>
        <option value="false">false</option>
        {offList(options) && <option value={value}>{value}</option>}
      </select>
    );
  } else if (kind === "choice") {
    const options = (field.options ?? []).map((o) => String(o));
    control = (
      <select {...common} className="input" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">
          {field.default !== undefined
            ? `Default (${show(field.default)})`
            : field.required
              ? "Choose one…"
              : "Not set"}
        </option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
        {offList(options) && <option value={value}>{value}</option>}
      </select>
    );
  } else if (kind === "longtext" || kind === "json") {
    control = (
      <textarea
        {...common}
        className={`input min-h-20 ${kind === "json" ? "font-mono text-xs" : ""}`}
        rows={kind === "json" ? 3 : 2}
        value={value}
        placeholder={example}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  } else {
    control = (
      <input
        {...common}
        className={`input ${kind === "number" ? "tabular-nums" : ""}`}
        inputMode={kind === "number" ? "decimal" : undefined}
        value={value}
        placeholder={example}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  }

  return (
    <div data-testid="node-input-field">
      <div className="mb-1 flex flex-wrap items-baseline gap-x-2">
        <label htmlFor={id} className="font-mono text-xs font-semibold text-zinc-900 dark:text-zinc-100">
          {field.name}
        </label>
        <span className="text-xs text-zinc-600 dark:text-zinc-400">
          {kind === "json" ? `${field.type}, as JSON` : field.type}
        </span>
        <span
          className={`text-xs font-medium ${field.required ? "text-rose-700 dark:text-rose-300" : "text-zinc-600 dark:text-zinc-400"}`}
        >
          {field.required ? "required" : "optional"}
        </span>
      </div>
      {control}
      <FieldProblem id={`${id}-problem`} problem={problem} />
      <p id={helpId} className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
        {field.description}
        {field.default !== undefined && kind !== "boolean" && kind !== "choice" && <> Default {show(field.default)}.</>}
        {field.options && kind !== "choice" && <> One or more of {field.options.map(show).join(", ")}.</>}
      </p>
    </div>
  );
}
