import { withAuth } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/api/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { listMcpServers } from "@/lib/mcp/list-mcp-servers";

export const GET = withAuth(async ({ team, user, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return { data: await listMcpServers(team.id, user.id) };
});
