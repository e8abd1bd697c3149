import "server-only";
import type { NextRequest } from "next/server";
import { getToken } from "next-auth/jwt";
import { prepared, read } from "@/lib/db/read";
import { appUrl, secrets } from "@/lib/config/env";
import { ApiError, badRequest, unauthorized } from "@/lib/errors/api-error";
import type { Principal } from "@/lib/api-keys/authenticate-api-key";

/** The header the dashboard names its current team with (a custom header: a cross-site form cannot send it). */
export const TEAM_HEADER = "x-patchbay-team";

const SESSION_COOKIE = /(^|;\s*)(__Secure-)?next-auth\.session-token(\.\d+)?=/;
export const hasSessionCookie = (req: Request) => SESSION_COOKIE.test(req.headers.get("cookie") ?? "");

const findMembership = prepared((a: { teamId: string; userId: string }) =>
  read
    .selectFrom("Membership as m")
    .innerJoin("Team as t", "t.id", "m.teamId")
    .innerJoin("User as u", "u.id", "m.userId")
    .select(["m.role", "t.name as teamName", "t.plan", "t.historyDays", "u.email", "u.sessionEpoch"])
    .where("m.teamId", "=", a.teamId)
    .where("m.userId", "=", a.userId),
);

/**
 * A dashboard request: the signed-in user from the session cookie, in the team the request
 * names, with the same visibility as that user's API key would have. Mutations must come from
 * our own pages: the custom team header (which forces a CORS preflight cross-site) and, when
 * the browser sends one, an Origin of this app.
 */
export async function authenticateSession(req: NextRequest): Promise<Principal> {
  const session = await sessionOf(req);
  if (!session) throw unauthorized(SESSION_ENDED);
  const { userId } = session;
  const teamId = req.headers.get(TEAM_HEADER);
  if (!teamId) throw badRequest(`Name the team in the ${TEAM_HEADER} header.`);
  refuseCrossSite(req);
  const [membership] = await findMembership({ teamId, userId });
  // Removed from the team: that team's sessions end here, on the next request.
  if (!membership) throw new ApiError(404, `You are not a member of team ${teamId}.`);
  const { role, teamName, plan, historyDays, email, sessionEpoch } = membership;
  // Signed out everywhere since this session began.
  if (sessionEpoch !== session.epoch) throw unauthorized(SESSION_ENDED);
  return {
    team: { id: teamId, name: teamName, plan, historyDays },
    user: { id: userId, email },
    apiKeyId: null,
    role: role === "owner" ? "owner" : "member",
  };
}

const SESSION_ENDED = "Your session has ended; sign in again.";

/** The session cookie's user and the epoch it was issued in (not yet checked against the user's), or null. */
async function sessionOf(req: NextRequest): Promise<{ userId: string; epoch: number } | null> {
  const token = await getToken({ req, secret: secrets().authSecret });
  if (typeof token?.uid !== "string") return null;
  return { userId: token.uid, epoch: typeof token.sv === "number" ? token.sv : 0 };
}

const findSessionEpoch = prepared((a: { userId: string }) =>
  read.selectFrom("User").select(["sessionEpoch"]).where("id", "=", a.userId),
);

/** The signed-in user's id from a session that is still valid (not signed out everywhere), or null. */
export async function sessionUserId(req: NextRequest): Promise<string | null> {
  const session = await sessionOf(req);
  if (!session) return null;
  const [user] = await findSessionEpoch({ userId: session.userId });
  return user && user.sessionEpoch === session.epoch ? session.userId : null;
}

/**
 * A mutation whose browser says it came from another site is refused (a 403 `ApiError`).
 * Pages that send no Referrer (the invite and connect pages: their URL holds a secret) make the
 * browser send `Origin: null` on their own form posts; those pass only when the browser also
 * says the request is same-origin (`Sec-Fetch-Site`, which a page cannot set).
 */
export function refuseCrossSite(req: NextRequest) {
  if (["GET", "HEAD", "OPTIONS"].includes(req.method)) return;
  const site = req.headers.get("sec-fetch-site");
  if (site === "cross-site" || site === "same-site") throw new ApiError(403, "Cross-site request refused.");
  const origin = req.headers.get("origin");
  if (!origin || origin === new URL(appUrl()).origin || origin === req.nextUrl.origin) return;
  if (origin === "null" && site === "same-origin") return;
  throw new ApiError(403, "Cross-site request refused.");
}
