import { sandboxProvidersEnabled } from "@/lib/config/env";
import { errorResponse } from "@/lib/http/json";

/**
 * The sandbox provider exists only where SANDBOX_PROVIDERS is on (never by default in
 * production); an error its handlers throw (a body over its bound) is answered as JSON.
 */
export function sandboxEnabledOr404(handler: (req: Request) => Promise<Response>) {
  return async (req: Request) => {
    if (!sandboxProvidersEnabled())
      return Response.json({ detail: "The sandbox provider is disabled (SANDBOX_PROVIDERS=0)." }, { status: 404 });
    try {
      return await handler(req);
    } catch (e) {
      return errorResponse(e);
    }
  };
}
