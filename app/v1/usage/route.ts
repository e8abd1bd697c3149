import { withAuth } from "@/lib/api/with-auth";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { parseQuery } from "@/lib/http/parse";
import { usageQuerySchema } from "@/lib/schemas/usage";
import { listUsage } from "@/lib/clients/usage";

export const GET = withAuth(async ({ team, user, searchParams }) =>
  listUsage(team.id, user.id, parseQuery(usageQuerySchema, searchParams)),
);

const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
