import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { listClientsQuerySchema } from "@/lib/schemas/clients";
import { listClients } from "@/lib/clients/list-clients";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** The Clients page: one row per external_id, searched, filtered by health, sorted, paged. */
export const GET = withSession(async ({ team, user, searchParams }) =>
  listClients(team.id, user.id, parseQuery(listClientsQuerySchema, searchParams)),
);

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
