import { NextRequest } from "next/server";
import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { hasSessionCookie, TEAM_HEADER } from "@/lib/auth/authenticate-session";
import { clientUsageCsvQuerySchema } from "@/lib/schemas/clients";
import { parseClientKey } from "@/lib/clients/parse-client-key";
import { streamClientUsageCsv } from "@/lib/clients/stream-client-usage-csv";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

type Params = { client: string };

const exportClientUsageCsv = withSession<Params>(async ({ team, user, params, searchParams }) => {
  const { from, to } = parseQuery(clientUsageCsvQuerySchema, searchParams);
  const externalId = parseClientKey(params.client);
  const day = (s: number) => new Date(s * 1000).toISOString().slice(0, 10);
  // The file name says whose and when, in characters every file system takes.
  const who = (externalId ?? "no-client").replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 60);
  return new Response(streamClientUsageCsv(team.id, user.id, externalId, { from, to }), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="usage-${who}-${day(from)}-${day(Math.max(from, to - 1))}.csv"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
});

/**
 * A download link cannot send the x-patchbay-team header, so (as for the ledger's export, and only
 * for a session) the team may come as `?team=`; membership is checked exactly as for the header.
 */
export async function GET(req: NextRequest, route: { params: Promise<Params> }) {
  const team = req.nextUrl.searchParams.get("team");
  if (team && !req.headers.has(TEAM_HEADER) && !req.headers.has("authorization") && hasSessionCookie(req)) {
    const headers = new Headers(req.headers);
    headers.set(TEAM_HEADER, team);
    return exportClientUsageCsv(new NextRequest(req.url, { method: "GET", headers }), route);
  }
  return exportClientUsageCsv(req, route);
}

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
