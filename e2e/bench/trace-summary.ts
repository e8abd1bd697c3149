// Where the late frames of a bench:ui scroll went: reads a Chromium trace in which the page
// marked every late frame (`performance.mark("late-frame")` at the start of the late callback)
// and sums, over the gap before each mark, the renderer main thread's time by event name.
import { readFileSync } from "node:fs";

export const TRACE_CATEGORIES = [
  "devtools.timeline",
  "blink.user_timing",
  "v8",
  "v8.execute",
  "disabled-by-default-devtools.timeline",
  "blink",
];

type TraceEvent = {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: Record<string, unknown>;
};

export function summariseLateFrames(path: string) {
  const raw = JSON.parse(readFileSync(path, "utf8")) as { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(raw) ? raw : raw.traceEvents;
  const marks = events.filter(
    (e) => e.name === "late-frame" && (e.ph === "R" || e.ph === "I" || e.ph === "n" || e.ph === "b"),
  );
  if (!marks.length) return "[trace] no late frames marked";
  const { pid, tid } = marks[0];
  const main = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === "X" && e.dur);
  const byName = new Map<string, number>();
  const scripts = new Map<string, number>();
  let gaps = 0;
  for (const mark of marks) {
    const detail = Number((mark.args?.data as { detail?: unknown } | undefined)?.detail ?? 33);
    const from = mark.ts - detail * 1000;
    gaps += detail;
    for (const e of main) {
      const overlap = Math.min(e.ts + e.dur!, mark.ts) - Math.max(e.ts, from);
      if (overlap <= 0) continue;
      byName.set(e.name, (byName.get(e.name) ?? 0) + overlap / 1000);
      if (
        e.name === "FunctionCall" ||
        e.name === "EvaluateScript" ||
        e.name === "TimerFire" ||
        e.name === "FireAnimationFrame" ||
        e.name === "EventDispatch"
      ) {
        const d = e.args?.data as { functionName?: string; url?: string; type?: string } | undefined;
        const key =
          `${e.name} ${d?.type ?? ""} ${d?.functionName ?? ""} ${(d?.url ?? "").split("/").pop() ?? ""}`.trim();
        scripts.set(key, (scripts.get(key) ?? 0) + overlap / 1000);
      }
    }
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `  ${v.toFixed(1).padStart(8)} ms  ${k}`)
      .join("\n");
  return [
    `[trace] ${marks.length} late frames, ${gaps.toFixed(0)} ms of gaps; main-thread time inside them by event (nested events overlap):`,
    top(byName, 25),
    "[trace] scripts inside them:",
    top(scripts, 15),
  ].join("\n");
}

if (process.argv[1]?.endsWith("trace-summary.ts")) console.log(summariseLateFrames(process.argv[2]));
