"use client";

import Link from "next/link";
import { useId } from "react";
import type { TeamConnection } from "@/components/agent/use-team-connections";
import { plural } from "@/lib/text/plural";

const muted = "text-zinc-600 dark:text-zinc-400";
const TEXT_BUTTON = [
  "font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300",
  "disabled:text-zinc-500 disabled:no-underline",
].join(" ");

/** The connections the agent may use, grouped by platform, each a checkbox; every one to start with. */
export function ConnectionPicker({
  teamId,
  connections,
  selected,
  onChange,
}: {
  teamId: string;
  connections: TeamConnection[];
  selected: ReadonlySet<string>;
  onChange: (selected: Set<string>) => void;
}) {
  const helpId = useId();
  const groups = new Map<string, TeamConnection[]>();
  for (const c of connections) groups.set(c.platform, [...(groups.get(c.platform) ?? []), c]);
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onChange(next);
  };
  const count = connections.filter((c) => selected.has(c.id)).length;

  return (
    <fieldset aria-describedby={helpId} className="rounded-lg border border-zinc-200 p-3 dark:border-zinc-800">
      <legend className="px-1 text-sm font-medium">Connections it may use</legend>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p id={helpId} data-testid="picked-connections" className={`text-xs ${muted}`}>
          {connections.length === 0
            ? "None yet: the agent can only answer from what it knows."
            : count === 0
              ? "None: the agent can only answer from what it knows."
              : count < connections.length
                ? `${count} of ${plural(connections.length, "connection")}.`
                : connections.length === 1
                  ? "Your one connection: the agent finds the operations that run on it."
                  : `All ${connections.length}: the agent finds the operations that run on them.`}
        </p>
        {connections.length > 1 && (
          <div className="flex gap-3 text-xs">
            <button
              type="button"
              className={TEXT_BUTTON}
              disabled={count === connections.length}
              onClick={() => onChange(new Set(connections.map((c) => c.id)))}
            >
              Select all
            </button>
            <button type="button" className={TEXT_BUTTON} disabled={count === 0} onClick={() => onChange(new Set())}>
              Select none
            </button>
          </div>
        )}
      </div>
      {connections.length === 0 ? (
        <p className="mt-2 text-sm">
          <Link
            href={`/${teamId}/connections`}
            className="font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300"
          >
            Connect an account
          </Link>{" "}
          for the agent to read and write.
        </p>
      ) : (
        <div className="mt-2 max-h-72 space-y-3 overflow-y-auto">
          {[...groups].map(([platform, list]) => (
            <fieldset key={platform}>
              <legend className={`text-xs font-semibold uppercase tracking-wide ${muted}`}>{platform}</legend>
              <ul className="mt-1 space-y-1">
                {list.map((c) => (
                  <li key={c.id}>
                    <label className="flex items-start gap-2 text-sm">
                      <input
                        type="checkbox"
                        className="mt-0.5 h-4 w-4 shrink-0 accent-indigo-600"
                        checked={selected.has(c.id)}
                        onChange={(e) => toggle(c.id, e.target.checked)}
                      />
                      <span className="min-w-0 wrap-anywhere">
                        {c.name}
                        <span className={`text-xs ${muted}`}>
                          {" "}
                          · {c.typeName}
                          {c.is_private ? " · private" : ""}
                        </span>
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
          ))}
        </div>
      )}
    </fieldset>
  );
}
