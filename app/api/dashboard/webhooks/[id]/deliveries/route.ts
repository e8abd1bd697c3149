import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { listWebhookDeliveriesQuerySchema } from "@/lib/schemas/webhooks";
import { listWebhookDeliveries } from "@/lib/webhooks/list-deliveries";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** The endpoint's delivery log, newest first; filter by event_type and outcome. */
export const GET = withSession<{ id: string }>(
  async ({ team, params, searchParams }) =>
    listWebhookDeliveries(team.id, params.id, parseQuery(listWebhookDeliveriesQuerySchema, searchParams)),
  { ownerOnly: true },
);

const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
