import "server-only";
import type { NextRequest } from "next/server";
import { knownError } from "@/lib/errors/api-error";
import { errorResponse, json } from "@/lib/http/json";
import { clientIp, requestIdFrom, runWithContext } from "@/lib/observability/request-context";
import { logRequest } from "@/lib/observability/request-log";
import { OAUTH_CORS } from "@/lib/mcp-oauth/metadata";
import { OAuthError, oauthErrorResponse } from "@/lib/mcp-oauth/oauth-error";

type Handler = (req: NextRequest) => Promise<unknown>;

/**
 * The wrapper of the OAuth endpoints and discovery documents: a request id and log line like
 * every route, CORS open to any origin (browser-based MCP clients call these from their own
 * page; none of them takes a cookie), `no-store`, and errors as RFC 6749 JSON. An ApiError (a
 * rate limit, a body too large) keeps its status and `detail` and gains `error`.
 */
export function oauthRoute(path: string, handler: Handler) {
  return async (req: NextRequest): Promise<Response> => {
    const t0 = performance.now();
    const requestId = requestIdFrom(req.headers);
    return runWithContext({ requestId, ip: clientIp(req.headers) }, async () => {
      let res: Response;
      try {
        const body = await handler(req);
        res = body instanceof Response ? body : json(body, { headers: { ...OAUTH_CORS, pragma: "no-cache" } });
      } catch (e) {
        res = toResponse(e);
      }
      res.headers.set("x-request-id", requestId);
      logRequest({ method: req.method, path, status: res.status, startedAt: t0, principal: null });
      return res;
    });
  };
}

function toResponse(e: unknown): Response {
  if (e instanceof OAuthError) return oauthErrorResponse(e);
  const known = knownError(e);
  if (!known) return errorResponse(e);
  const error =
    known.status === 429 ? "too_many_requests" : known.status >= 500 ? "temporarily_unavailable" : "invalid_request";
  return json(
    { error, error_description: String(known.detail), detail: known.detail },
    { status: known.status, headers: { ...OAUTH_CORS, ...known.headers } },
  );
}

/** The answer to a CORS preflight. */
export const preflight = async () => new Response(null, { status: 204, headers: OAUTH_CORS });
