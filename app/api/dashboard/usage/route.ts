import { withAuth } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/api/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { getDailyUsage } from "@/lib/credits/daily-usage";

/** The overview's chart: credits per day and service type over the current billing period. */
export const GET = withAuth(async ({ team, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return getDailyUsage(team.id);
});
