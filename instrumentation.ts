// Next.js runs register() once when a server instance starts, before it serves: every request
// is stamped with its TCP peer's address (lib/server/peer-address.ts), and every instance runs a
// webhook dispatcher over the shared outbox (lib/webhooks/dispatcher.ts), the expiry of
// approval requests (lib/approvals/expire-approvals.ts) and the workflow runner with its
// scheduler (lib/workflows/runner.ts), each on the instance's job loop (lib/jobs).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { stampPeerAddresses } = await import("@/lib/server/peer-address");
  stampPeerAddresses();
  const { startWebhookDispatcher } = await import("@/lib/webhooks/dispatcher");
  startWebhookDispatcher();
  const { startApprovalSweeper } = await import("@/lib/approvals/expire-approvals");
  startApprovalSweeper();
  const { startWorkflowRunner } = await import("@/lib/workflows/runner");
  startWorkflowRunner();
}
