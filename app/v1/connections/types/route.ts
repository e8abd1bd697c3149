import { withAuth } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/api/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { connectionTypes, connectionTypeToJson } from "@/lib/providers/registry";

export const GET = withAuth(async ({ searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return connectionTypes().map(connectionTypeToJson);
});
