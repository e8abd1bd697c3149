import { withAuth } from "@/lib/api/with-auth";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { getCreditBalance } from "@/lib/credits/get-credit-balance";

export const GET = withAuth(async ({ team, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return getCreditBalance(team.id);
});

const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
