import { withSession } from "@/lib/api/with-auth";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { rotateWebhookToken } from "@/lib/workflows/save-workflow";
import { webhookUrl } from "@/lib/workflows/triggers";

/** Rotates a webhook trigger's URL: the old one answers 404 from now on; the new one is shown once. */
export const POST = withSession<{ id: string }>(async ({ team, user, params, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  const token = await rotateWebhookToken({ teamId: team.id, userId: user.id }, params.id);
  return { webhook_url: webhookUrl(token) };
});

const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
