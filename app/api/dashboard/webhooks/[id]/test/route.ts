import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { sendTestEvent } from "@/lib/webhooks/endpoints";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** Queues a `webhook.test` event to this endpoint. */
export const POST = withSession<{ id: string }>(
  async ({ team, params, searchParams }) => {
    parseQuery(noParamsSchema, searchParams);
    return sendTestEvent(team.id, params.id);
  },
  { ownerOnly: true },
);

const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
