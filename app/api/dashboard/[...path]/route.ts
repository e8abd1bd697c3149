import { json } from "@/lib/http/json";

// Unknown dashboard API paths (a mistyped id route, or `..` resolved away by the URL parser)
// answer in the API's own error shape rather than the HTML 404 page.
const unknown = (req: Request) =>
  json({ detail: `No endpoint ${req.method} ${new URL(req.url).pathname}.` }, { status: 404 });

export { unknown as GET, unknown as POST, unknown as PUT, unknown as PATCH, unknown as DELETE };
