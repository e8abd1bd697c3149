import { sandboxProvidersEnabled } from "@/lib/config/env";

/** The sandbox provider exists only where SANDBOX_PROVIDERS is on (never by default in production). */
export function sandboxEnabledOr404(handler: (req: Request) => Promise<Response>) {
  return (req: Request) =>
    sandboxProvidersEnabled() ? handler(req) : Promise.resolve(Response.json({ detail: "The sandbox provider is disabled (SANDBOX_PROVIDERS=0)." }, { status: 404 }));
}
