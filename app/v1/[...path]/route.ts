import { json } from "@/lib/http/json";

// Unknown /v1 paths answer in the API's own error shape rather than an HTML 404 page.
const unknown = (req: Request) =>
  json({ detail: `No endpoint ${req.method} ${new URL(req.url).pathname}; see /v1/openapi.json.` }, { status: 404 });

export { unknown as GET, unknown as POST, unknown as PUT, unknown as PATCH, unknown as DELETE };
