"use client";

import { useId, useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import { ErrorNote } from "@/components/ui/error-note";
import { plural } from "@/lib/text/plural";
import { useBulkReplay } from "@/components/workflows/trigger-api";

type Range = "day" | "week" | "custom";
const RANGES: readonly [Range, string][] = [
  ["day", "Last 24 hours"],
  ["week", "Last 7 days"],
  ["custom", "Custom range"],
];
const HOUR = 3_600_000;

/** A datetime-local input's value for Unix ms, in the browser's zone. */
const localInput = (ms: number) => {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
};

/**
 * Replay failed runs…: every failed or stopped run of the workflow queued in a time range is
 * replayed from its failed node, once; the answer says how many were and why the others were not.
 */
export function BulkReplayDialog({
  teamId,
  workflowId,
  open,
  onClose,
}: {
  teamId: string;
  workflowId: string;
  open: boolean;
  onClose: () => void;
}) {
  const id = useId();
  const replay = useBulkReplay(teamId, workflowId);
  const [range, setRange] = useState<Range>("day");
  const [from, setFrom] = useState(() => localInput(Date.now() - 24 * HOUR));
  const [to, setTo] = useState(() => localInput(Date.now()));
  const close = () => {
    replay.reset();
    onClose();
  };
  const bounds = (): { from: number; to: number } | string => {
    const now = Date.now();
    if (range === "day") return { from: now - 24 * HOUR, to: now };
    if (range === "week") return { from: now - 7 * 24 * HOUR, to: now };
    const f = Date.parse(from);
    // The inputs name minutes: the end's minute is counted whole.
    const t = Date.parse(to) + 60_000;
    if (Number.isNaN(f) || Number.isNaN(t)) return "Give both the start and the end of the range.";
    if (f >= t) return "The start of the range must come before its end.";
    return { from: f, to: t };
  };
  const choose = (value: Range) => {
    setRange(value);
    // A custom range starts as the last 24 hours up to now, not up to when the page loaded.
    if (value === "custom") {
      setFrom(localInput(Date.now() - 24 * HOUR));
      setTo(localInput(Date.now()));
    }
  };
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const b = bounds();
    if (typeof b === "string") return setProblem(b);
    setProblem(null);
    replay.mutate(b);
  };
  const answer = replay.data;
  return (
    <Dialog open={open} onClose={close} title="Replay failed runs" className="max-w-lg">
      {answer ? (
        <div className="space-y-3 text-sm" aria-live="polite" data-testid="bulk-replay-result">
          <p className="font-medium">
            {answer.replayed.length
              ? `${plural(answer.replayed.length, "run")} replayed from ${answer.replayed.length === 1 ? "its" : "their"} failed step.`
              : answer.skipped.length
                ? "No run was replayed."
                : "No run failed or stopped in that range without being replayed already."}{" "}
            {answer.skipped.length ? `${plural(answer.skipped.length, "run")} skipped:` : ""}
          </p>
          {answer.skipped.length > 0 && (
            <ul className="max-h-64 space-y-1 overflow-y-auto rounded-lg border border-zinc-200 p-2 dark:border-zinc-800">
              {answer.skipped.map((s) => (
                <li key={s.run_id} className="wrap-anywhere">
                  <span className="font-mono text-xs">{s.run_id}</span>: {s.reason}
                </li>
              ))}
            </ul>
          )}
          {answer.replayed.length > 0 && (
            <p className="text-zinc-600 dark:text-zinc-400">The replays are in the run history.</p>
          )}
          <div className="flex justify-end">
            <button type="button" className="btn-primary" onClick={close} data-autofocus>
              Done
            </button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-4 text-sm" noValidate>
          <p className="text-zinc-700 dark:text-zinc-300">
            Each run that failed or stopped in the range, and was not replayed yet, runs again from its failed step with
            its own trigger data. Writes already done are not sent again; a run whose replay would repeat one is
            skipped.
          </p>
          <fieldset>
            <legend className="mb-1 font-medium">Runs queued in</legend>
            <div className="flex flex-col gap-2 sm:flex-row sm:gap-5">
              {RANGES.map(([value, words]) => (
                <label key={value} className="flex cursor-pointer items-center gap-2">
                  <input type="radio" name={`${id}-range`} checked={range === value} onChange={() => choose(value)} />
                  {words}
                </label>
              ))}
            </div>
          </fieldset>
          {range === "custom" && (
            <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
              <div>
                <label htmlFor={`${id}-from`} className="mb-1 block font-medium">
                  From
                </label>
                <input
                  id={`${id}-from`}
                  type="datetime-local"
                  className="input"
                  value={from}
                  onChange={(e) => setFrom(e.target.value)}
                />
              </div>
              <div>
                <label htmlFor={`${id}-to`} className="mb-1 block font-medium">
                  To
                </label>
                <input
                  id={`${id}-to`}
                  type="datetime-local"
                  className="input"
                  value={to}
                  onChange={(e) => setTo(e.target.value)}
                />
              </div>
            </div>
          )}
          {problem && <ErrorNote error={problem} />}
          {replay.error && <ErrorNote error={replay.error} title="Nothing was replayed" />}
          <div className="flex justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={close} data-autofocus>
              Cancel
            </button>
            <button type="submit" className="btn-primary" disabled={replay.isPending}>
              {replay.isPending ? "Replaying…" : "Replay failed runs"}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
