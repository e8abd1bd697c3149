import "server-only";
import type { NextRequest } from "next/server";
import { badRequest, forbidden, unauthorized } from "@/lib/errors/api-error";
import { errorResponse, json, jsonBody, JsonText } from "@/lib/http/json";
import { findNul } from "@/lib/http/parse";
import {
  apiKeyHash,
  confirmApiKey,
  lastConfirmed,
  samePrincipal,
  type Principal,
} from "@/lib/api-keys/authenticate-api-key";
import { authenticateSession, hasSessionCookie } from "@/lib/auth/authenticate-session";
import { enforceRateLimit, seenLimited } from "@/lib/rate-limit/hit-rate-limit";
import { rateLimits } from "@/lib/rate-limit/limits";
import { clientIp, requestIdFrom, runWithContext, setActor } from "@/lib/observability/request-context";
import { logRequest, templatePath } from "@/lib/observability/request-log";
import { requestStarted } from "@/lib/observability/requests-in-flight";

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
  options: { ownerOnly?: boolean; sessionOnly?: boolean; readOnly?: boolean } = {},
) {
  return async (req: NextRequest, route: { params: Promise<P> }): Promise<Response> => {
    const t0 = performance.now();
    const requestId = requestIdFrom(req.headers);
    const flight = requestStarted(req.method, req.nextUrl.pathname);
    return runWithContext({ requestId, ip: clientIp(req.headers) }, async () => {
      const params = ((await route?.params) ?? {}) as P;
      let principal: Principal | null = null;
      let limitHeaders: Record<string, string> = {};
      let res: Response;
      let headersSet = false;
      let t1 = t0;
      let confirmedAt: number | undefined;
      let result: unknown;
      try {
        const authorization = req.headers.get("authorization");
        if (options.sessionOnly && authorization) throw unauthorized(SESSION_ONLY);
        // An API key when one is sent; otherwise the dashboard's signed-in session.
        const viaSession = options.sessionOnly || (!authorization && hasSessionCookie(req));
        const hash = viaSession ? null : apiKeyHash(authorization);
        const guess = hash && options.readOnly && !options.ownerOnly ? lastConfirmed(hash) : undefined;
        if (hash && guess && findNul(params) === null && !seenLimited(rateLimits().apiKey, guess.apiKeyId!)) {
          // One round trip of latency instead of two: the key is confirmed on one pool connection
          // while the handler reads on another, as the principal this process last confirmed for
          // this key. Nothing is answered before the confirmation is in; the answer is the
          // handler's only if the confirmation gives that same principal, else it runs again.
          const confirming = settle(confirmApiKey(hash));
          const counting = settle(enforceRateLimit(rateLimits().apiKey, guess.apiKeyId!));
          setActor(actorOf(guess));
          t1 = performance.now();
          flight.stage("handler");
          const handling = settle(
            (async () => handler({ ...guess, req, params, searchParams: req.nextUrl.searchParams }))(),
          );
          principal = unwrap(await confirming);
          confirmedAt = performance.now();
          limitHeaders = unwrap(await counting);
          if (samePrincipal(principal, guess)) result = unwrap(await handling);
          else {
            setActor(actorOf(principal));
            if (principal.apiKeyId !== guess.apiKeyId)
              limitHeaders = await enforceRateLimit(rateLimits().apiKey, principal.apiKeyId!);
            result = await handler({ ...principal, req, params, searchParams: req.nextUrl.searchParams });
          }
        } else {
          principal = hash ? await confirmApiKey(hash) : await authenticateSession(req);
          setActor(actorOf(principal));
          limitHeaders = principal.apiKeyId
            ? await enforceRateLimit(rateLimits().apiKey, principal.apiKeyId)
            : await enforceRateLimit(rateLimits().apiUser, principal.user.id);
          if (options.ownerOnly && principal.role !== "owner") throw forbidden("Only team owners can do this.");
          t1 = performance.now();
          flight.stage("handler");
          const nul = findNul(params);
          if (nul !== null) throw badRequest(`${nul}: must not contain NUL characters`);
          result = await handler({ ...principal, req, params, searchParams: req.nextUrl.searchParams });
        }
        const t2 = performance.now();
        flight.stage("answer");
        if (result instanceof Response) {
          res = result;
          res.headers.set("server-timing", serverTiming(t0, t1, t2, t2, confirmedAt));
        } else {
          // Plain data (most answers): the response is made once, with all its headers.
          const body = new JsonText(jsonBody(result));
          res = json(body, {
            headers: {
              ...limitHeaders,
              "x-request-id": requestId,
              "server-timing": serverTiming(t0, t1, t2, performance.now(), confirmedAt),
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
    }).finally(flight.done);
  };
}

/**
 * For a handler that only reads (no write, no call out, nothing that must not happen for a
 * refused key): with an API key this process has confirmed before, it starts while the key is
 * confirmed again, and its answer waits for that confirmation (PostgreSQL; see `withAuth`).
 */
export const READ_ONLY = { readOnly: true } as const;

/**
 * The dashboard's own routes (/api/dashboard/*): the signed-in session only. They reach what
 * /v1 never gives an API key (MCP servers and their tokens, members, webhooks, API keys), so
 * a leaked integration key must not become any of that.
 */
export const withSession = <P = Record<string, never>>(handler: Handler<P>, options: { ownerOnly?: boolean } = {}) =>
  withAuth<P>(handler, { ...options, sessionOnly: true });

const SESSION_ONLY = "This is a dashboard route: it takes the signed-in session only. API keys are for the /v1 API.";

/**
 * `auth` until the handler starts, `handler` until its answer may go (for a read started before
 * its key was confirmed, that includes waiting for the confirmation; `confirm` then says when
 * the confirmation came in, counted from the handler's start), `serialize` the JSON text.
 */
const serverTiming = (t0: number, t1: number, t2: number, t3: number, confirmedAt?: number) =>
  `auth;dur=${(t1 - t0).toFixed(2)}, handler;dur=${(t2 - t1).toFixed(2)}, serialize;dur=${(t3 - t2).toFixed(2)}` +
  (confirmedAt === undefined ? "" : `, confirm;dur=${(confirmedAt - t1).toFixed(2)}`);

const actorOf = (principal: Principal) => ({
  kind: principal.apiKeyId ? ("api_key" as const) : ("session" as const),
  userId: principal.user.id,
  email: principal.user.email,
  apiKeyId: principal.apiKeyId,
});

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };
/** A promise that never rejects (nothing unhandled when its outcome is dropped); `unwrap` throws what it threw. */
const settle = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
function unwrap<T>(settled: Settled<T>): T {
  if (settled.ok) return settled.value;
  throw settled.error;
}
