"use client";

import { useSyncExternalStore } from "react";
import { LocalTime } from "@/components/time/local-time";

// "in 12 min", "3 h ago": one clock for the whole page, ticking every 15 s. The server (and the
// hydrating browser) render no relative text, only the absolute time, so the HTML never depends
// on when it was made.

const TICK_MS = 15_000;
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      listeners.forEach((l) => l());
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (!listeners.size && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The page's clock in Unix ms; null while rendering on the server and hydrating. */
export function useNow(): number | null {
  return useSyncExternalStore(
    subscribe,
    () => now,
    () => null,
  );
}

const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto", style: "short" });

/**
 * `atMs` relative to `nowMs`: "in 12 min", "3 hr. ago", "just now". The page's clock can be up to
 * one tick behind, so an instant known to be over (`past`: a run that started) that reads as
 * slightly ahead of it is "just now", never "in a few seconds".
 */
export function relativeTo(atMs: number, nowMs: number, past = false): string {
  const diff = past ? Math.min(atMs - nowMs, 0) : atMs - nowMs;
  const abs = Math.abs(diff);
  if (abs < 45_000) return diff > 0 ? "in a few seconds" : "just now";
  if (abs < 3_600_000) return rtf.format(Math.round(diff / 60_000), "minute");
  if (abs < 86_400_000) return rtf.format(Math.round(diff / 3_600_000), "hour");
  return rtf.format(Math.round(diff / 86_400_000), "day");
}

/**
 * When a run started, relative ("3 min. ago"), or for one that has not started (queued) when it
 * will: "starts in 12 min.", "starts in a moment" when it is due now, and "waiting to start" once
 * its time has passed. A run that has not started never reads "started …" or "in …" under
 * "Started".
 */
export function runWhen(run: { started_at: number | null; due_at: number }, nowMs: number): string {
  if (run.started_at !== null) return relativeTo(run.started_at, nowMs, true);
  const diff = run.due_at - nowMs;
  if (diff >= 45_000) return `starts ${relativeTo(run.due_at, nowMs)}`;
  if (diff > -60_000) return "starts in a moment";
  return "waiting to start";
}

/**
 * An instant as "in 12 min" with the absolute time beside it (or below it, `stacked`), in the
 * viewer's zone; `past` when it is known to be over (see relativeTo).
 */
export function When({
  ms,
  past = false,
  stacked = false,
  className = "",
}: {
  ms: number;
  past?: boolean;
  stacked?: boolean;
  className?: string;
}) {
  const current = useNow();
  const muted = "text-zinc-600 dark:text-zinc-400";
  if (stacked) {
    return (
      <div className={`min-w-0 leading-tight ${className}`}>
        <div className="truncate">
          {current === null ? <LocalTime seconds={ms / 1000} /> : relativeTo(ms, current, past)}
        </div>
        {current !== null && (
          <LocalTime seconds={ms / 1000} className={`block truncate text-xs tabular-nums ${muted}`} />
        )}
      </div>
    );
  }
  return (
    <span className={className}>
      {current !== null && <span>{relativeTo(ms, current, past)} · </span>}
      <LocalTime seconds={ms / 1000} className="tabular-nums" />
    </span>
  );
}

/** A run's time in the runs table: relative (runWhen), the absolute time below; a queued run's is when it is due. */
export function RunWhen({ run }: { run: { started_at: number | null; due_at: number } }) {
  const current = useNow();
  const at = run.started_at ?? run.due_at;
  return (
    <div className="min-w-0 leading-tight">
      <div className="truncate">{current === null ? <LocalTime seconds={at / 1000} /> : runWhen(run, current)}</div>
      {current !== null && (
        <LocalTime
          seconds={at / 1000}
          className="block truncate text-xs tabular-nums text-zinc-600 dark:text-zinc-400"
        />
      )}
    </div>
  );
}
