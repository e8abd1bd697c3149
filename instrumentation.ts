// Next.js runs register() once when a server instance starts: every instance runs a webhook
// dispatcher over the shared outbox (lib/webhooks/dispatcher.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startWebhookDispatcher } = await import("@/lib/webhooks/dispatcher");
  startWebhookDispatcher();
}
