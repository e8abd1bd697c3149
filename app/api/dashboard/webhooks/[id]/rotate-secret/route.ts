import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { rotateWebhookSecret } from "@/lib/webhooks/endpoints";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** A new signing secret, shown once; the old one keeps signing alongside it for 24 h. */
export const POST = withSession<{ id: string }>(
  async ({ team, params, searchParams }) => {
    parseQuery(noParamsSchema, searchParams);
    const { endpoint, secret } = await rotateWebhookSecret(team.id, params.id);
    return { ...endpoint, secret };
  },
  { ownerOnly: true },
);

const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
