import { json } from "@/lib/http/json";

/** The handler for the methods a route does not support: 405 with Allow and a `{detail}`. */
export function methodNotAllowed(allow: string) {
  return async (req: Request) =>
    json(
      { detail: `${req.method} is not supported on ${new URL(req.url).pathname}; use ${allow}.` },
      { status: 405, headers: { allow } },
    );
}
