import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { getDailyUsage } from "@/lib/credits/daily-usage";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** The overview's chart: credits per day and service type over the current billing period. */
export const GET = withSession(async ({ team, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return getDailyUsage(team.id);
});

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
