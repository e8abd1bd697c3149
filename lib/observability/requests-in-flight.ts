import { redactString } from "@/lib/observability/redact";

// The requests this process is answering now, for `kill -USR2` (lib/server/state-on-signal.ts):
// a request that does not end shows here with its age and the stage it is in, so a client's
// wait is told apart from a request that never arrived.

type Stage = "auth" | "handler" | "answer";
type InFlight = { method: string; path: string; startedAt: number; stage: Stage };

// On globalThis: instrumentation.ts (which reports) and the route handlers (which count) are
// bundled apart, each with its own copy of this module.
const g = globalThis as { __patchbayRequestsInFlight?: Set<InFlight> };
const inFlight = (g.__patchbayRequestsInFlight ??= new Set<InFlight>());
const SHOWN = 20;

/** Counts a request in until `done` is called; `stage` moves it on. */
export function requestStarted(method: string, path: string) {
  const request: InFlight = { method, path, startedAt: Date.now(), stage: "auth" };
  inFlight.add(request);
  return {
    stage: (stage: Stage) => void (request.stage = stage),
    done: () => void inFlight.delete(request),
  };
}

/** The oldest requests in flight first, at most 20, with how many there are in all. */
export function requestsInFlight(): { count: number; oldest: string[] } {
  const now = Date.now();
  const oldest = [...inFlight]
    .sort((a, b) => a.startedAt - b.startedAt)
    .slice(0, SHOWN)
    .map((r) => `${r.method} ${redactString(r.path.slice(0, 200))} ${now - r.startedAt} ms in ${r.stage}`);
  return { count: inFlight.size, oldest };
}
