import { withAuth } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/api/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { listMembers } from "@/lib/members/list-members";

export const GET = withAuth(async ({ team, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return { data: await listMembers(team.id) };
});
