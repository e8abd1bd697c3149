"use client";

import { useId } from "react";
import { useDebouncedText } from "@/components/data-table/use-debounced-text";
import { secondsToZonedInput, useDisplayTimeZone, zonedInputToSeconds } from "@/components/time/local-time";

const labelClass = "mb-1 block text-xs font-medium text-zinc-600 dark:text-zinc-400";

export function FilterSelect({
  label,
  value,
  options,
  onChange,
  optionLabel = (o) => o,
  anyLabel = "Any",
}: {
  label: string;
  value: string | undefined;
  options: readonly string[];
  onChange: (v: string | undefined) => void;
  /** What an option reads as (the URL keeps its value). */
  optionLabel?: (value: string) => string;
  /** What the empty value (the default) reads as. */
  anyLabel?: string;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <select id={id} className="input" value={value ?? ""} onChange={(e) => onChange(e.target.value || undefined)}>
        <option value="">{anyLabel}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {optionLabel(o)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A text filter that updates the URL after typing pauses (or at once on Enter). */
export function FilterText({
  label,
  value,
  placeholder,
  onChange,
  mono = true,
}: {
  label: string;
  value: string | undefined;
  placeholder?: string;
  onChange: (v: string | undefined) => void;
  /** Ids are typed in monospace; free-text searches are not. */
  mono?: boolean;
}) {
  const id = useId();
  const { text, type, commit } = useDebouncedText(value, onChange);
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <input
        id={id}
        className={`input ${mono ? "font-mono" : ""}`}
        value={text}
        placeholder={placeholder}
        spellCheck={false}
        autoComplete="off"
        onChange={(e) => type(e.target.value)}
        onKeyDown={(e) => e.key === "Enter" && commit(text)}
      />
    </div>
  );
}

/** A date-and-time filter kept in the URL as Unix seconds, typed in the display time zone. */
export function FilterDateTime({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string | undefined;
  onChange: (v: string | undefined) => void;
}) {
  const id = useId();
  const zone = useDisplayTimeZone();
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <input
        id={id}
        type="datetime-local"
        className="input"
        value={secondsToZonedInput(value, zone)}
        onChange={(e) => onChange(zonedInputToSeconds(e.target.value, zone))}
      />
    </div>
  );
}
