import { NextRequest } from "next/server";
import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { hasSessionCookie, TEAM_HEADER } from "@/lib/auth/authenticate-session";
import { listCreditLogsQuerySchema } from "@/lib/schemas/credits";
import { streamCreditLogsCsv } from "@/lib/credits/stream-credit-logs-csv";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

const exportQuerySchema = listCreditLogsQuerySchema.omit({ limit: true, cursor: true }).strict();

const exportLedgerCsv = withSession(async ({ team, user, searchParams }) => {
  const params = new URLSearchParams(searchParams);
  params.delete("team");
  const filters = parseQuery(exportQuerySchema, params);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(streamCreditLogsCsv(team.id, user.id, filters), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="ledger-${team.id}-${day}.csv"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
});

/**
 * A download link cannot send the x-patchbay-team header, so for this read-only export (and
 * only for a session, never next to an API key) the team may come as `?team=`; membership is
 * still checked by the session authentication exactly as for the header.
 */
export async function GET(req: NextRequest, route: { params: Promise<Record<string, never>> }) {
  const team = req.nextUrl.searchParams.get("team");
  if (team && !req.headers.has(TEAM_HEADER) && !req.headers.has("authorization") && hasSessionCookie(req)) {
    const headers = new Headers(req.headers);
    headers.set(TEAM_HEADER, team);
    return exportLedgerCsv(new NextRequest(req.url, { method: "GET", headers }), route);
  }
  return exportLedgerCsv(req, route);
}

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
