import { withAuth } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/api/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { listAuthLinks } from "@/lib/auth-links/list-auth-links";

export const GET = withAuth(async ({ team, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return listAuthLinks(team.id);
});
