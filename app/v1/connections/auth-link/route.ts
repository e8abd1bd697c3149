import { withAuth } from "@/lib/api/with-auth";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { createAuthLinkBodySchema } from "@/lib/schemas/auth-links";
import { createAuthLink } from "@/lib/auth-links/create-auth-link";

export const POST = withAuth(async (ctx) => {
  parseQuery(noParamsSchema, ctx.searchParams);
  const body = await parseJsonBody(createAuthLinkBodySchema, ctx.req);
  return createAuthLink(ctx, body);
});

const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
