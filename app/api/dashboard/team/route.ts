import { withSession } from "@/lib/api/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/api/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { setLowCreditsBodySchema } from "@/lib/schemas/webhooks";
import { getLowCreditsPercent, setLowCreditsPercent } from "@/lib/teams/set-low-credits";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** The team's notification settings: the credits.low threshold. */
export const GET = withSession(async ({ team, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return getLowCreditsPercent(team.id);
});

export const PATCH = withSession(
  async ({ team, req, searchParams }) => {
    parseQuery(noParamsSchema, searchParams);
    const body = await parseJsonBody(setLowCreditsBodySchema, req);
    return setLowCreditsPercent(team.id, body.low_credits_percent);
  },
  { ownerOnly: true },
);

const notAllowed = methodNotAllowed("GET, PATCH");
export { notAllowed as POST, notAllowed as PUT, notAllowed as DELETE };
