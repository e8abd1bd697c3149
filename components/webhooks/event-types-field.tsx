"use client";

import { useId } from "react";
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES } from "@/lib/schemas/webhook-event-types";

const linkButton =
  "text-xs font-medium text-indigo-700 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-indigo-600 dark:text-indigo-400";

/** Every type ticked means "all events", which also takes types added later. */
export const allTicked = (selected: readonly string[]) => WEBHOOK_EVENT_TYPES.every((t) => selected.includes(t));

/** The event-type checkboxes of the add and edit dialogs. */
export function EventTypesField({ selected, onChange }: { selected: string[]; onChange: (types: string[]) => void }) {
  const hintId = useId();
  const toggle = (type: string, on: boolean) =>
    onChange(WEBHOOK_EVENT_TYPES.filter((t) => (t === type ? on : selected.includes(t))));
  return (
    <fieldset aria-describedby={hintId}>
      <legend className="text-sm font-medium">Event types</legend>
      <div className="mb-2 mt-0.5 flex items-start justify-between gap-3">
        <p id={hintId} className="text-xs text-zinc-500 dark:text-zinc-400">
          {selected.length === 0
            ? "Choose at least one event type."
            : allTicked(selected)
              ? "All events: with every type ticked the endpoint also receives types added later."
              : `${selected.length} of ${WEBHOOK_EVENT_TYPES.length} types. “Send test event” reaches the endpoint whatever it subscribes to.`}
        </p>
        <span className="flex shrink-0 gap-3">
          <button type="button" className={linkButton} onClick={() => onChange([...WEBHOOK_EVENT_TYPES])}>
            Select all
          </button>
          <button type="button" className={linkButton} onClick={() => onChange([])}>
            Clear
          </button>
        </span>
      </div>
      <div className="grid max-h-72 gap-1 overflow-y-auto rounded-lg border border-zinc-200 p-1 sm:grid-cols-2 dark:border-zinc-800">
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <EventTypeOption
            key={type}
            type={type}
            checked={selected.includes(type)}
            onChange={(on) => toggle(type, on)}
          />
        ))}
      </div>
    </fieldset>
  );
}

function EventTypeOption({
  type,
  checked,
  onChange,
}: {
  type: (typeof WEBHOOK_EVENT_TYPES)[number];
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  const descId = useId();
  return (
    <label className="flex cursor-pointer gap-2 rounded-md p-2 text-sm hover:bg-zinc-50 has-[:checked]:bg-indigo-50/60 dark:hover:bg-zinc-800/60 dark:has-[:checked]:bg-indigo-950/40">
      <input
        type="checkbox"
        className="mt-0.5 accent-indigo-600"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        aria-label={type}
        aria-describedby={descId}
      />
      <span className="min-w-0">
        <span className="block font-mono text-xs font-medium text-zinc-900 dark:text-zinc-100">{type}</span>
        <span id={descId} className="block text-xs text-zinc-500 dark:text-zinc-400">
          {WEBHOOK_EVENT_DESCRIPTIONS[type]}
        </span>
      </span>
    </label>
  );
}
