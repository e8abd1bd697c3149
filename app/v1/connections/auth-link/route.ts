import { withAuth } from "@/lib/api/with-auth";
import { parseJsonBody } from "@/lib/api/parse";
import { createAuthLinkBodySchema } from "@/lib/schemas/auth-links";
import { createAuthLink } from "@/lib/auth-links/create-auth-link";

export const POST = withAuth(async (ctx) => {
  const body = await parseJsonBody(createAuthLinkBodySchema, ctx.req);
  return createAuthLink(ctx, body);
});
