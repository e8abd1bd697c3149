import { withAuth } from "@/lib/api/with-auth";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { turnResponse } from "@/lib/api/turn-response";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { postMessageBodySchema } from "@/lib/schemas/agents";
import { postMessage } from "@/lib/agents/conversations";

export const POST = withAuth<{ conversation_id: string }>(async ({ team, user, params, req, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  const body = await parseJsonBody(postMessageBodySchema, req);
  return turnResponse(req, 200, (listener) => postMessage({ team, user }, params.conversation_id, body, listener));
});

const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
