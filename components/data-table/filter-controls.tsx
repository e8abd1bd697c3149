"use client";

import { useEffect, useId, useRef, useState } from "react";
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

// Long enough to finish pasting or typing an id, short enough to feel live.
const DEBOUNCE_MS = 450;

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
  const [text, setText] = useState(value ?? "");
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // The URL is the truth: the back button or a link changes it under the input.
  useEffect(() => setText(value ?? ""), [value]);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  // A commit after the pause uses the filter as it is then, not as it was when typing began.
  const latest = useRef({ value, onChange });
  useEffect(() => {
    latest.current = { value, onChange };
  }, [value, onChange]);
  const commit = (v: string) => {
    if (timer.current) clearTimeout(timer.current);
    const next = v.trim() || undefined;
    if (next !== (latest.current.value || undefined)) latest.current.onChange(next);
  };
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
        onChange={(e) => {
          const v = e.target.value;
          setText(v);
          if (timer.current) clearTimeout(timer.current);
          timer.current = setTimeout(() => commit(v), DEBOUNCE_MS);
        }}
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
