import { withAuth } from "@/lib/api/with-auth";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { listConnectionTypes } from "@/lib/platforms/list-connection-types";

export const GET = withAuth(async ({ searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return listConnectionTypes();
});

const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
