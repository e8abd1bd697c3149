import "server-only";
import type { NextRequest } from "next/server";
import { badRequest, errorResponse, json } from "@/lib/api/errors";
import { findNul } from "@/lib/api/parse";
import { authenticateApiKey, type Principal } from "@/lib/api-keys/authenticate-api-key";

export type AuthContext<P> = Principal & {
  req: NextRequest;
  params: P;
  searchParams: URLSearchParams;
};

type Handler<P> = (ctx: AuthContext<P>) => Promise<unknown>;

/**
 * The one wrapper for every /v1 route: authenticates the bearer API key, resolves team and
 * user, and turns every thrown error into its status with a `{detail}` body. A handler
 * returns plain data (sent as 200 JSON) or a Response.
 */
export function withAuth<P = Record<string, never>>(handler: Handler<P>) {
  return async (req: NextRequest, route: { params: Promise<P> }): Promise<Response> => {
    try {
      const principal = await authenticateApiKey(req.headers.get("authorization"));
      const params = (await route?.params) ?? ({} as P);
      const nul = findNul(params);
      if (nul !== null) throw badRequest(`${nul}: must not contain NUL characters`);
      const result = await handler({ ...principal, req, params, searchParams: req.nextUrl.searchParams });
      return result instanceof Response ? result : json(result);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
