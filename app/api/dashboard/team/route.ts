import { withSession } from "@/lib/api/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { updateTeamSettingsBodySchema } from "@/lib/schemas/team-settings";
import { setLowCreditsPercent } from "@/lib/teams/set-low-credits";
import { getTeamSettings, setForbidSelfApproval } from "@/lib/teams/set-forbid-self-approval";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** The team's settings: the credits.low threshold, and whether a member may approve their own write request. */
export const GET = withSession(async ({ team, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return getTeamSettings(team.id);
});

/** Owners only, each change audited. */
export const PATCH = withSession(
  async ({ team, req, searchParams }) => {
    parseQuery(noParamsSchema, searchParams);
    const body = await parseJsonBody(updateTeamSettingsBodySchema, req);
    if (body.low_credits_percent !== undefined) await setLowCreditsPercent(team.id, body.low_credits_percent);
    if (body.forbid_self_approval !== undefined) await setForbidSelfApproval(team.id, body.forbid_self_approval);
    return { id: team.id, ...(await getTeamSettings(team.id)) };
  },
  { ownerOnly: true },
);

const notAllowed = methodNotAllowed("GET, PATCH");
export { notAllowed as POST, notAllowed as PUT, notAllowed as DELETE };
