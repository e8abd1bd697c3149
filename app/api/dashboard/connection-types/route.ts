import { withAuth } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/api/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { listConnectionTypesWithLogos } from "@/lib/providers/list-connection-types-with-logos";

export const GET = withAuth(async ({ searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return listConnectionTypesWithLogos();
});
