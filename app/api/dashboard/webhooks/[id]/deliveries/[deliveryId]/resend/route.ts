import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { resendDelivery } from "@/lib/webhooks/endpoints";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** Sends the delivery's event to the endpoint again (a new delivery, the same webhook-id). */
export const POST = withSession<{ id: string; deliveryId: string }>(
  async ({ team, params, searchParams }) => {
    parseQuery(noParamsSchema, searchParams);
    return resendDelivery(team.id, params.id, params.deliveryId);
  },
  { ownerOnly: true },
);

const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
