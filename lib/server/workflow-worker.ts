import { fork, type ChildProcess } from "node:child_process";
import { setPriority } from "node:os";
import { logger } from "@/lib/observability/logger";
import { jobSignal } from "@/lib/db/commit-signals";
import { WORKFLOW_RUNS_JOB } from "@/lib/jobs/job-names";

// Starts this instance's workflow worker (lib/server/workflow-worker-main.ts) as a child process and keeps it
// running: a worker that exits is started again after a pause that grows while it keeps failing.
// The worker leaves when this process does, even by kill -9 (its IPC channel closes). Runs it had
// claimed are taken over by the next claim once their lease lapses, as after any crash.
// WORKFLOW_RUNNER=inline runs the runner in this process instead (one event loop for all), =off
// none at all (a web-only instance). The
// worker runs at a lower CPU priority (nice WORKFLOW_WORKER_NICE, 10 by default).

let child: ChildProcess | null = null;

const workerNice = () => {
  const n = Number(process.env.WORKFLOW_WORKER_NICE ?? 10);
  return Number.isInteger(n) && n >= 0 && n <= 19 ? n : 10;
};

// Joined at run time: the bundler must not take the worker's path for a module of the server.
const workerEntry = () => [process.cwd(), "lib", "server", "workflow-worker-main.ts"].join("/");

export function startWorkflowWorker() {
  // A web-only instance: other instances run the team's workflows.
  if (process.env.WORKFLOW_RUNNER === "off") return;
  if (process.env.WORKFLOW_RUNNER === "inline") {
    void import("@/lib/auth-links/provide-builtins").then((m) => m.provideWorkflowBuiltins());
    void import("@/lib/workflows/runner").then((m) => m.startWorkflowRunner());
    return;
  }
  const g = globalThis as { __patchbayWorkflowWorker?: boolean };
  if (g.__patchbayWorkflowWorker) return;
  g.__patchbayWorkflowWorker = true;
  let failures = 0;
  const spawnWorker = () => {
    const startedAt = Date.now();
    child = fork(workerEntry(), [], {
      cwd: process.cwd(),
      execArgv: ["--conditions=react-server", "--import", "tsx"],
      env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? "production" },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    // Runs yield the CPU to requests: on a busy machine the server's answers come first, and a
    // burst of runs takes a little longer instead (WORKFLOW_WORKER_NICE, 0 to turn it off).
    try {
      if (child.pid) setPriority(child.pid, workerNice());
    } catch (e) {
      logger.warn("could not lower the workflow worker's priority", { error: e });
    }
    child.on("exit", (code, signal) => {
      child = null;
      failures = Date.now() - startedAt > 60_000 ? 1 : failures + 1;
      const wait = Math.min(30_000, 500 * 2 ** Math.min(failures, 6));
      logger.warn("the workflow worker stopped; starting it again", { code, signal, retry_in_ms: wait });
      setTimeout(spawnWorker, wait).unref();
    });
  };
  spawnWorker();
  // A run this process queues (Run now, an API call, a webhook, an event) wakes the worker at
  // once, not at its next poll: the commit's signal becomes one IPC message.
  jobSignal(WORKFLOW_RUNS_JOB).kick = () => {
    if (child?.connected) child.send(WAKE, () => {});
  };
}

/** The message that tells the worker runs are waiting (lib/server/workflow-worker-main.ts). */
const WAKE = "workflow-runs:wake";
