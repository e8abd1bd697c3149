import { appUrl } from "@/lib/config/env";
import { buildOpenApiDocument } from "@/lib/openapi/build-document";

// Public: the document describes the API and holds nothing of any team's.
export function GET() {
  return Response.json(buildOpenApiDocument(appUrl()), { headers: { "cache-control": "public, max-age=300" } });
}
