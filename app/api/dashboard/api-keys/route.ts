import { withSession } from "@/lib/api/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { createApiKeyBodySchema } from "@/lib/schemas/dashboard";
import { listApiKeys } from "@/lib/api-keys/list-api-keys";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

export const GET = withSession(
  async ({ team, searchParams }) => {
    parseQuery(noParamsSchema, searchParams);
    return { data: await listApiKeys(team.id) };
  },
  { ownerOnly: true },
);

/** The key is in this response only; it is stored as a hash. */
export const POST = withSession(
  async ({ team, user, req }) => {
    const body = await parseJsonBody(createApiKeyBodySchema, req);
    const created = await createApiKey({ teamId: team.id, userId: user.id, name: body.name, requireTeamPlan: true });
    const key = (await listApiKeys(team.id)).find((k) => k.id === created.id)!;
    return { ...key, key: created.key };
  },
  { ownerOnly: true },
);

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("GET, POST");
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
