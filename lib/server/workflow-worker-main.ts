// The workflow worker: the process each instance starts beside its server (lib/server/
// workflow-worker.ts) to run workflows, so a burst of runs never shares the server's event loop or
// its SQLite connection with the requests it serves. It runs the scheduler and the runner
// (lib/workflows/runner.ts) and a webhook dispatcher of its own, so the events its runs write
// (workflow.run_failed) go out at once; dispatchers of several processes share the outbox safely.
// It ends when the server that started it does, however that ends (the IPC channel closes).
import { logger } from "@/lib/observability/logger";

async function main() {
  if (!process.connected)
    throw new Error(
      "lib/server/workflow-worker-main.ts is started by the server (lib/server/workflow-worker.ts), with an IPC channel.",
    );
  process.on("disconnect", () => process.exit(0));
  const { reportStateOnSignal } = await import("@/lib/server/state-on-signal");
  reportStateOnSignal("workflow worker");
  const { provideWorkflowBuiltins } = await import("@/lib/auth-links/provide-builtins");
  provideWorkflowBuiltins();
  const { startWorkflowRunner } = await import("@/lib/workflows/runner");
  startWorkflowRunner();
  // The server queued a run: claim it now rather than at the next poll.
  const { jobSignal } = await import("@/lib/db/commit-signals");
  const { WORKFLOW_RUNS_JOB } = await import("@/lib/jobs/job-names");
  process.on("message", (m) => {
    if (m === "workflow-runs:wake") jobSignal(WORKFLOW_RUNS_JOB).kick?.();
  });
  const { startWebhookDispatcher } = await import("@/lib/webhooks/dispatcher");
  startWebhookDispatcher();
  process.send?.({ ready: true });
}

main().catch((e) => {
  logger.error("the workflow worker could not start", { error: e });
  process.exit(1);
});
