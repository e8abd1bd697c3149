import { withAuth } from "@/lib/api/with-auth";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { patchConversationBodySchema } from "@/lib/schemas/agents";
import { getConversation, setShared } from "@/lib/agents/conversations";

type Params = { conversation_id: string };

export const GET = withAuth<Params>(async ({ team, user, params, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return getConversation({ team, user }, params.conversation_id);
});

export const PATCH = withAuth<Params>(async ({ team, user, params, req, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  const body = await parseJsonBody(patchConversationBodySchema, req);
  return setShared({ team, user }, params.conversation_id, body.shared);
});

const notAllowed = methodNotAllowed("GET, PATCH");
export { notAllowed as POST, notAllowed as PUT, notAllowed as DELETE };
