import { withSession } from "@/lib/api/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { updateWebhookEndpointBodySchema } from "@/lib/schemas/webhooks";
import { deleteWebhookEndpoint, getWebhookEndpoint, updateWebhookEndpoint } from "@/lib/webhooks/endpoints";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

export const GET = withSession<{ id: string }>(
  async ({ team, params, searchParams }) => {
    parseQuery(noParamsSchema, searchParams);
    return getWebhookEndpoint(team.id, params.id);
  },
  { ownerOnly: true },
);

/** Change the URL, the event types, the description, or turn it on or off. */
export const PATCH = withSession<{ id: string }>(
  async ({ team, params, req, searchParams }) => {
    parseQuery(noParamsSchema, searchParams);
    return updateWebhookEndpoint(team.id, params.id, await parseJsonBody(updateWebhookEndpointBodySchema, req));
  },
  { ownerOnly: true },
);

export const DELETE = withSession<{ id: string }>(
  async ({ team, params, searchParams }) => {
    parseQuery(noParamsSchema, searchParams);
    return deleteWebhookEndpoint(team.id, params.id);
  },
  { ownerOnly: true },
);

const notAllowed = methodNotAllowed("GET, PATCH, DELETE");
export { notAllowed as POST, notAllowed as PUT };
