import "server-only";
import type { NextRequest } from "next/server";
import { badRequest, forbidden, unauthorized } from "@/lib/errors/api-error";
import { errorResponse, json, jsonBody, JsonText } from "@/lib/http/json";
import { findNul } from "@/lib/http/parse";
import { authenticateApiKey, type Principal } from "@/lib/api-keys/authenticate-api-key";
import { authenticateSession, hasSessionCookie } from "@/lib/auth/authenticate-session";
import { enforceRateLimit } from "@/lib/rate-limit/hit-rate-limit";
import { rateLimits } from "@/lib/rate-limit/limits";
import { clientIp, requestIdFrom, runWithContext, setActor } from "@/lib/observability/request-context";
import { logRequest, templatePath } from "@/lib/observability/request-log";

type AuthContext<P> = Principal & {
  req: NextRequest;
  params: P;
  searchParams: URLSearchParams;
};

type Handler<P> = (ctx: AuthContext<P>) => Promise<unknown>;

/**
 * The one wrapper for every /v1 route: authenticates the bearer API key (or the dashboard's
 * session), resolves team and user, counts the request against the rate limit of its API key (or
 * of the signed-in user), and turns every thrown error into its status with a `{detail}` body. A handler
 * returns plain data (sent as 200 JSON) or a Response. `Server-Timing` tells a client (and
 * the benchmark) where a request's time went: authentication, the handler, serialisation.
 * Every request gets an id (`X-Request-Id`, the caller's when sane) and one JSON log line.
 */
export function withAuth<P = Record<string, never>>(
  handler: Handler<P>,
  options: { ownerOnly?: boolean; sessionOnly?: boolean } = {},
) {
  return async (req: NextRequest, route: { params: Promise<P> }): Promise<Response> => {
    const t0 = performance.now();
    const requestId = requestIdFrom(req.headers);
    return runWithContext({ requestId, ip: clientIp(req.headers) }, async () => {
      const params = ((await route?.params) ?? {}) as P;
      let principal: Principal | null = null;
      let limitHeaders: Record<string, string> = {};
      let res: Response;
      let headersSet = false;
      try {
        const authorization = req.headers.get("authorization");
        if (options.sessionOnly && authorization) throw unauthorized(SESSION_ONLY);
        // An API key when one is sent; otherwise the dashboard's signed-in session.
        principal =
          options.sessionOnly || (!authorization && hasSessionCookie(req))
            ? await authenticateSession(req)
            : await authenticateApiKey(authorization);
        setActor({
          kind: principal.apiKeyId ? "api_key" : "session",
          userId: principal.user.id,
          email: principal.user.email,
          apiKeyId: principal.apiKeyId,
        });
        limitHeaders = principal.apiKeyId
          ? await enforceRateLimit(rateLimits().apiKey, principal.apiKeyId)
          : await enforceRateLimit(rateLimits().apiUser, principal.user.id);
        if (options.ownerOnly && principal.role !== "owner") throw forbidden("Only team owners can do this.");
        const t1 = performance.now();
        const nul = findNul(params);
        if (nul !== null) throw badRequest(`${nul}: must not contain NUL characters`);
        const result = await handler({ ...principal, req, params, searchParams: req.nextUrl.searchParams });
        const t2 = performance.now();
        if (result instanceof Response) {
          res = result;
          res.headers.set("server-timing", serverTiming(t0, t1, t2, t2));
        } else {
          // Plain data (most answers): the response is made once, with all its headers.
          const body = new JsonText(jsonBody(result));
          res = json(body, {
            headers: {
              ...limitHeaders,
              "x-request-id": requestId,
              "server-timing": serverTiming(t0, t1, t2, performance.now()),
            },
          });
          headersSet = true;
        }
      } catch (error) {
        res = errorResponse(error);
      }
      if (!headersSet) {
        for (const name in limitHeaders) if (!res.headers.has(name)) res.headers.set(name, limitHeaders[name]);
        res.headers.set("x-request-id", requestId);
      }
      logRequest({
        method: req.method,
        path: templatePath(req.nextUrl.pathname, params as Record<string, unknown>),
        query: req.nextUrl.searchParams,
        status: res.status,
        startedAt: t0,
        teamId: principal?.team.id,
        principal: principal ? (principal.apiKeyId ? "api_key" : "session") : null,
      });
      return res;
    });
  };
}

/**
 * The dashboard's own routes (/api/dashboard/*): the signed-in session only. They reach what
 * /v1 never gives an API key (MCP servers and their tokens, members, webhooks, API keys), so
 * a leaked integration key must not become any of that.
 */
export const withSession = <P = Record<string, never>>(handler: Handler<P>, options: { ownerOnly?: boolean } = {}) =>
  withAuth<P>(handler, { ...options, sessionOnly: true });

const SESSION_ONLY = "This is a dashboard route: it takes the signed-in session only. API keys are for the /v1 API.";

const serverTiming = (t0: number, t1: number, t2: number, t3: number) =>
  `auth;dur=${(t1 - t0).toFixed(2)}, handler;dur=${(t2 - t1).toFixed(2)}, serialize;dur=${(t3 - t2).toFixed(2)}`;
