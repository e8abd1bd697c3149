import { withSession } from "@/lib/api/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { createWebhookEndpointBodySchema } from "@/lib/schemas/webhooks";
import { createWebhookEndpoint, listWebhookEndpoints } from "@/lib/webhooks/endpoints";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

// Settings → Webhooks: team owners only.

export const GET = withSession(
  async ({ team, searchParams }) => {
    parseQuery(noParamsSchema, searchParams);
    return { data: await listWebhookEndpoints(team.id) };
  },
  { ownerOnly: true },
);

/** The answer carries the signing secret: the only time it is shown. */
export const POST = withSession(
  async ({ team, req, searchParams }) => {
    parseQuery(noParamsSchema, searchParams);
    const body = await parseJsonBody(createWebhookEndpointBodySchema, req);
    const { endpoint, secret } = await createWebhookEndpoint(team.id, body);
    return { ...endpoint, secret };
  },
  { ownerOnly: true },
);

const notAllowed = methodNotAllowed("GET, POST");
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
