"use client";

import { useSyncExternalStore } from "react";

// Dashboard times are shown in the viewer's time zone, and the page says which. The server
// renders in UTC (and says so) whatever zone it runs in, so the HTML it sends never depends on
// the server's TZ; the browser then switches to the viewer's zone after hydration (React renders
// the server snapshot first, so nothing mismatches).

const noSubscription = () => () => {};
const viewerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** "UTC" while rendering on the server and hydrating; the viewer's IANA zone afterwards. */
export function useDisplayTimeZone(): string {
  return useSyncExternalStore(noSubscription, viewerZone, () => "UTC");
}

// Intl formatters are costly to build and every table cell needs them: one per kind and zone.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: "shown" | "date" | "offset" | "fields", timeZone: string) {
  const key = `${kind} ${timeZone}`;
  let f = formatters.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions =
      kind === "shown"
        ? { year: "numeric", month: "short", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" }
        : kind === "date"
          ? { year: "numeric", month: "short", day: "2-digit" }
          : kind === "offset"
            ? { timeZoneName: "shortOffset" }
            : {
                hourCycle: "h23",
                year: "numeric",
                month: "2-digit",
                day: "2-digit",
                hour: "2-digit",
                minute: "2-digit",
                second: "2-digit",
              };
    const locale = kind === "shown" || kind === "date" ? "en-GB" : "en-US";
    formatters.set(key, (f = new Intl.DateTimeFormat(locale, { ...options, timeZone })));
  }
  return f;
}

/** Unix seconds as a date and time in `timeZone`, to the second (the API's resolution). */
export function formatTime(seconds: number, timeZone: string) {
  return formatter("shown", timeZone).format(new Date(seconds * 1000));
}

/** The zone's name and its offset at `atMs`, e.g. "Pacific/Kiritimati (GMT+14)". */
function describeZone(timeZone: string, atMs = Date.now()) {
  const offset =
    formatter("offset", timeZone)
      .formatToParts(atMs)
      .find((p) => p.type === "timeZoneName")?.value ?? "";
  return timeZone === "UTC" || offset === "" || offset === "GMT" ? timeZone : `${timeZone} (${offset})`;
}

/** The exact instant, whatever the zone: "2026-11-26 00:37:14 UTC". */
const exactUtc = (seconds: number) =>
  `${new Date(Math.floor(seconds) * 1000).toISOString().slice(0, 19).replace("T", " ")} UTC`;

/**
 * An instant (Unix seconds), shown in the display zone: "26 Nov 2026, 00:37:14", or with
 * `dateOnly` "26 Nov 2026". Every date of the dashboard is one of these two; the tooltip names
 * the zone and the exact instant.
 */
export function LocalTime({
  seconds,
  dateOnly = false,
  className,
}: {
  seconds: number;
  dateOnly?: boolean;
  className?: string;
}) {
  const zone = useDisplayTimeZone();
  return (
    <time
      dateTime={new Date(seconds * 1000).toISOString()}
      title={zone === "UTC" ? exactUtc(seconds) : `${describeZone(zone, seconds * 1000)} · ${exactUtc(seconds)}`}
      className={className}
    >
      {dateOnly ? formatter("date", zone).format(new Date(seconds * 1000)) : formatTime(seconds, zone)}
    </time>
  );
}

/** Says which zone the page's times are in. */
export function TimeZoneNote({ className }: { className?: string }) {
  const zone = useDisplayTimeZone();
  return (
    <span data-testid="time-zone-note" className={className}>
      Times in {zone === "UTC" ? "UTC" : `your time zone, ${describeZone(zone)}`}.
    </span>
  );
}

const pad = (n: number) => String(n).padStart(2, "0");

/** Wall-clock fields of an instant in `timeZone`. */
function wallClock(ms: number, timeZone: string) {
  const parts = Object.fromEntries(
    formatter("fields", timeZone)
      .formatToParts(ms)
      .map((p) => [p.type, p.value]),
  );
  return {
    y: Number(parts.year),
    mo: Number(parts.month),
    d: Number(parts.day),
    h: Number(parts.hour),
    mi: Number(parts.minute),
    s: Number(parts.second),
  };
}

/** Unix seconds (as kept in the URL) → a `datetime-local` input value in `timeZone`. */
export function secondsToZonedInput(seconds: string | undefined, timeZone: string) {
  if (!seconds || !/^\d+$/.test(seconds)) return "";
  const w = wallClock(Number(seconds) * 1000, timeZone);
  return `${w.y}-${pad(w.mo)}-${pad(w.d)}T${pad(w.h)}:${pad(w.mi)}`;
}

/** A `datetime-local` value read as a wall-clock time in `timeZone` → Unix seconds. */
export function zonedInputToSeconds(value: string, timeZone: string) {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d))?$/.exec(value);
  if (!m) return undefined;
  const asUtc = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] ?? 0));
  // The zone's offset at that moment, found by comparing wall clocks; a second pass settles
  // the hour around a daylight-saving change.
  let ms = asUtc;
  for (let i = 0; i < 2; i++) {
    const w = wallClock(ms, timeZone);
    ms = asUtc - (Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s) - ms);
  }
  return Number.isFinite(ms) ? String(Math.floor(ms / 1000)) : undefined;
}
