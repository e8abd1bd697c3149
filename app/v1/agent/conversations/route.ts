import { withAuth } from "@/lib/api/with-auth";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { turnResponse } from "@/lib/api/turn-response";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { createConversationBodySchema, listConversationsQuerySchema } from "@/lib/schemas/agents";
import { createConversation, listConversations } from "@/lib/agents/conversations";

export const GET = withAuth(async ({ team, user, searchParams }) => {
  const query = parseQuery(listConversationsQuerySchema, searchParams);
  return listConversations({ team, user }, query.q);
});

export const POST = withAuth(async ({ team, user, req, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  const body = await parseJsonBody(createConversationBodySchema, req);
  return turnResponse(req, 201, (listener) => createConversation({ team, user }, body, listener));
});

const notAllowed = methodNotAllowed("GET, POST");
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
