// Compiled by types.spec.ts with `tsc --noEmit`: the right calls compile, and each line under
// `@ts-expect-error` must fail to (an unused @ts-expect-error is itself an error).
import { type Patchbay, PatchbayError, verifyWebhook, type Log, type WebhookEvent } from "@patchbay/client";

export async function usage(patchbay: Patchbay) {
  const page = await patchbay.logs.list({ status: "error", source_type: "workflow", limit: 50 });
  const first: Log | undefined = page.data[0];
  const cursor: string | null = page.next_cursor;
  for await (const entry of patchbay.ledger.iterate({ service_type: "mcp" })) entry.credits_used.toFixed();
  const [connection] = await patchbay.connections.get("conn_x", { lookup_by: "external_id" });
  const link = await patchbay.authLinks.create({
    connection_type: "sandbox_oauth",
    redirect_url: "https://example.com/done",
  });
  link.expires_at.toFixed();
  for await (const row of patchbay.usage.iterate({ group_by: "external_id", from: 1_767_225_600, to: 1_769_904_000 }))
    row.credits.toFixed();

  // @ts-expect-error a parameter the operation does not have
  await patchbay.logs.list({ state: "error" });
  // @ts-expect-error a value outside the status enum
  await patchbay.logs.list({ status: "failed" });
  // @ts-expect-error the cursor belongs to the walk, not to its filters
  patchbay.logs.iterate({ cursor: "abc" });
  // @ts-expect-error a value outside service_type's enum
  patchbay.ledger.iterate({ service_type: "cron" });
  // @ts-expect-error lookup_by is id or external_id
  await patchbay.connections.get("conn_x", { lookup_by: "name" });
  // @ts-expect-error a body without its required connection_type
  await patchbay.authLinks.create({ redirect_url: "https://example.com" });
  // @ts-expect-error usage needs its range: from and to are required
  await patchbay.usage.list({ group_by: "connection_id" });
  // @ts-expect-error a field the response does not have
  const _credits = page.data[0].credits;

  return { first, cursor, connection };
}

export async function onWebhook(body: string, headers: Headers, secret: string) {
  const event: WebhookEvent = await verifyWebhook(body, headers, secret);
  if (event.type === "credits.low") return event.data.balance.credits_remaining;
  if (event.type === "connection.deleted") return event.data.deactivated_workflow_ids.length;
  // @ts-expect-error not an event type
  if (event.type === "connection.renamed") return 0;
  return 0;
}

export function onError(error: unknown) {
  if (error instanceof PatchbayError) return [error.status, error.detail, error.historyDays] as const;
}
