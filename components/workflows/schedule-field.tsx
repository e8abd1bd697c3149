"use client";

import { useEffect, useId, useState, useSyncExternalStore } from "react";
import { useQuery } from "@tanstack/react-query";
import { errorDetail } from "@/components/ui/error-note";
import { describeSchedule } from "@/components/workflows/schedule-words";
import { schedulePreviewQuery } from "@/lib/queries/workflows";
import { FieldProblem, RequiredMark } from "@/components/workflows/field-problem";

export type ScheduleValue = { mode: "manual" | "cron"; cron: string; timezone: string };

const noSubscription = () => () => {};
let zones: string[] | null = null;
/** Every IANA zone this browser knows (UTC first), read once. */
function zoneList(): string[] {
  if (!zones) {
    const all = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
    zones = ["UTC", ...all.filter((z) => z !== "UTC")];
  }
  return zones;
}
const NO_ZONES: string[] = [];

/**
 * The zones for the select: none while rendering on the server and hydrating (the lists of Node and
 * the browser differ).
 */
function useZones() {
  return useSyncExternalStore(noSubscription, zoneList, () => NO_ZONES);
}

// Long enough to finish typing a field of the expression, short enough to feel live.
const DEBOUNCE_MS = 400;

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const formats = new Map<string, Intl.DateTimeFormat>();
function inZone(ms: number, zone: string) {
  let f = formats.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat("en-GB", {
        weekday: "short",
        day: "2-digit",
        month: "short",
        year: "numeric",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
        timeZone: zone,
      });
    } catch {
      f = new Intl.DateTimeFormat("en-GB", {
        weekday: "short",
        day: "2-digit",
        month: "short",
        year: "numeric",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
        timeZone: "UTC",
      });
    }
    formats.set(zone, f);
  }
  return f.format(new Date(ms));
}

const label = "mb-1 block text-sm font-medium";
const help = "mt-1 text-xs text-zinc-600 dark:text-zinc-400";

/**
 * When a workflow runs: only when started, or on a cron schedule in a time zone, with the next
 * five runs as the server computes them (the same code the scheduler runs), or why the
 * expression is refused.
 */
export function ScheduleField({
  teamId,
  value,
  onChange,
  problems = {},
  showMode = true,
}: {
  teamId: string;
  value: ScheduleValue;
  onChange: (next: ScheduleValue) => void;
  /** What the last Save found wrong with the expression or the zone, shown beside each. */
  problems?: { schedule?: string; timezone?: string };
  /** False when a trigger picker beside it already says whether it runs on a schedule. */
  showMode?: boolean;
}) {
  const id = useId();
  const zones = useZones();
  const cron = useDebounced(value.cron.trim(), DEBOUNCE_MS);
  const zone = useDebounced(value.timezone, DEBOUNCE_MS);
  // The previous answer stays on screen (dimmed) while the next one is worked out.
  const preview = useQuery({
    ...schedulePreviewQuery(teamId, cron, zone),
    enabled: value.mode === "cron" && cron.length > 0,
    placeholderData: (previous) => previous,
  });
  const settling = cron !== value.cron.trim() || zone !== value.timezone || preview.isFetching;
  const shownZones = zones.includes(value.timezone) || !value.timezone ? zones : [value.timezone, ...zones];

  return (
    <div className="space-y-4">
      {showMode && (
        <fieldset>
          <legend className={label}>When it runs</legend>
          <div className="flex flex-col gap-2 sm:flex-row sm:gap-6">
            {(
              [
                ["manual", "Only when started", "Run now, or the command line."],
                ["cron", "On a schedule", "A cron expression in a time zone."],
              ] as const
            ).map(([mode, title, description]) => (
              <div key={mode} className="flex items-start gap-2 text-sm">
                <input
                  id={`${id}-mode-${mode}`}
                  type="radio"
                  name={`${id}-mode`}
                  className="mt-1 cursor-pointer"
                  checked={value.mode === mode}
                  aria-describedby={`${id}-mode-${mode}-help`}
                  onChange={() =>
                    onChange({ ...value, mode, cron: mode === "cron" && !value.cron.trim() ? "0 9 * * 1" : value.cron })
                  }
                />
                <span>
                  <label htmlFor={`${id}-mode-${mode}`} className="cursor-pointer font-medium">
                    {title}
                  </label>
                  <span id={`${id}-mode-${mode}-help`} className="block text-xs text-zinc-600 dark:text-zinc-400">
                    {description}
                  </span>
                </span>
              </div>
            ))}
          </div>
        </fieldset>
      )}

      {value.mode === "cron" && (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
          <div>
            <div className="mb-1 flex items-baseline gap-2">
              <label htmlFor={`${id}-cron`} className="text-sm font-medium">
                Cron expression
              </label>
              <RequiredMark />
            </div>
            <input
              id={`${id}-cron`}
              className="input font-mono"
              value={value.cron}
              spellCheck={false}
              autoComplete="off"
              placeholder="0 9 * * 1"
              aria-required="true"
              aria-invalid={problems.schedule ? true : undefined}
              aria-describedby={problems.schedule ? `${id}-cron-help ${id}-cron-problem` : `${id}-cron-help`}
              onChange={(e) => onChange({ ...value, cron: e.target.value })}
            />
            <FieldProblem id={`${id}-cron-problem`} problem={problems.schedule} />
            <p id={`${id}-cron-help`} className={help}>
              Five fields: minute, hour, day of the month, month, day of the week.{" "}
              <code className="font-mono">0 9 * * 1</code> is Mondays at 09:00;{" "}
              <code className="font-mono">*/15 * * * *</code> every 15 minutes.
            </p>
          </div>
          <div>
            <label htmlFor={`${id}-zone`} className={label}>
              Time zone
            </label>
            <select
              id={`${id}-zone`}
              className="input"
              value={value.timezone}
              onChange={(e) => onChange({ ...value, timezone: e.target.value })}
              aria-invalid={problems.timezone ? true : undefined}
              aria-describedby={problems.timezone ? `${id}-zone-help ${id}-zone-problem` : `${id}-zone-help`}
            >
              {(shownZones.length ? shownZones : [value.timezone]).map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </select>
            <FieldProblem id={`${id}-zone-problem`} problem={problems.timezone} />
            <p id={`${id}-zone-help`} className={help}>
              The schedule&apos;s hours, and the dates of <code className="font-mono">{"{{run.date.…}}"}</code>, are
              read in this zone.
            </p>
          </div>
          <div className="md:col-span-2" aria-live="polite" data-testid="schedule-preview">
            {!cron ? (
              <p className="text-sm text-zinc-600 dark:text-zinc-400">Type a cron expression to see when it runs.</p>
            ) : preview.error && !settling ? (
              <p className="rounded-lg border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800 dark:border-rose-900 dark:bg-rose-950/50 dark:text-rose-200">
                {errorDetail(preview.error)}
              </p>
            ) : preview.data ? (
              <div className={`text-sm ${settling ? "opacity-60" : ""}`}>
                <p className="font-medium">
                  {describeSchedule(cron)} ({zone}). Next runs:
                </p>
                <ol className="mt-1 space-y-0.5 tabular-nums text-zinc-700 dark:text-zinc-300">
                  {preview.data.map((ms) => (
                    <li key={ms}>
                      <time dateTime={new Date(ms).toISOString()}>{inZone(ms, zone)}</time>
                    </li>
                  ))}
                </ol>
              </div>
            ) : (
              <p className="text-sm text-zinc-600 dark:text-zinc-400">Working out the next runs…</p>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
