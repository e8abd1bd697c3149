// Next.js runs register() once when a server instance starts, before it serves: every request
// is stamped with its TCP peer's address (lib/observability/peer-address.ts), and every instance runs a
// webhook dispatcher over the shared outbox (lib/webhooks/dispatcher.ts), the expiry of
// approval requests (lib/approvals/expire-approvals.ts), the connections' health checks and token
// refreshes ahead of expiry (lib/connections/connection-jobs.ts), the agent turns that continue once their
// approval is decided (lib/agents/resume-turns.ts), each on the instance's job loop
// (lib/jobs), the history tables' partitions and retention (lib/history), and starts its workflow worker: the runner and scheduler in a process of their own
// (lib/server/workflow-worker.ts), off the requests' event loop.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { stampPeerAddresses } = await import("@/lib/observability/peer-address");
  stampPeerAddresses();
  // kill -USR2 logs what this process's database connections are doing (its worker answers its own).
  const { reportStateOnSignal } = await import("@/lib/server/state-on-signal");
  reportStateOnSignal("server");
  // `npm start` making the demo's history serves the sandbox without jobs: the demo builder runs its
  // own runs and approvals, at their moments in the past (lib/server/start.ts).
  if (process.env.BACKGROUND_JOBS === "off") return;
  const { startWebhookDispatcher } = await import("@/lib/webhooks/dispatcher");
  startWebhookDispatcher();
  const { startApprovalSweeper } = await import("@/lib/approvals/expire-approvals");
  startApprovalSweeper();
  const { startConnectionJobs } = await import("@/lib/connections/connection-jobs");
  startConnectionJobs();
  const { startAgentTurns } = await import("@/lib/agents/resume-turns");
  startAgentTurns();
  const { startHistoryMaintenance } = await import("@/lib/history/history-jobs");
  startHistoryMaintenance();
  const { startWorkflowWorker } = await import("@/lib/server/workflow-worker");
  startWorkflowWorker();
}
