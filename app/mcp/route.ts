import type { NextRequest } from "next/server";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { ApiError } from "@/lib/errors/api-error";
import { errorResponse } from "@/lib/http/json";
import { MAX_BODY_BYTES } from "@/lib/http/parse";
import type { McpPrincipal } from "@/lib/mcp-tokens/authenticate-mcp-token";
import { authenticateCaller } from "@/lib/mcp/authenticate-caller";
import { bearerChallenge } from "@/lib/mcp-oauth/metadata";
import { readNarrowing, resolveScope } from "@/lib/mcp/request-scope";
import { buildMcpServer } from "@/lib/mcp/build-server";
import { foreignOriginProblem } from "@/lib/mcp/check-origin";
import { refuseMalformedCalls } from "@/lib/mcp/refuse-malformed-calls";
import { enforceRateLimit } from "@/lib/rate-limit/hit-rate-limit";
import { rateLimits } from "@/lib/rate-limit/limits";
import { clientIp, requestIdFrom, runWithContext } from "@/lib/observability/request-context";
import { logRequest } from "@/lib/observability/request-log";

export const dynamic = "force-dynamic";

/**
 * The MCP endpoint (spec §4.13) over Streamable HTTP, stateless: every POST carries its bearer
 * MCP token or OAuth access token (CONTRACT §10) and may carry its own narrowing, so each
 * request gets a server built for exactly the connections it may use. Answers are plain JSON (no
 * SSE stream to hold open), which lets any number of app instances serve one client. Each
 * request is counted against its token's rate limit.
 */
export const POST = logged(async (req, as) => {
  const principal = as(await authenticateCaller(req.headers.get("authorization")));
  const limitHeaders = await enforceRateLimit(rateLimits().mcpToken, principal.tokenId);
  const scope = await resolveScope(principal, readNarrowing(req.headers, req.nextUrl.searchParams));
  const server = buildMcpServer({ principal, scope });
  const transport = new WebStandardStreamableHTTPServerTransport({
    enableJsonResponse: true,
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  await server.connect(transport);
  refuseMalformedCalls(transport);
  try {
    return withHeaders(await withDetail(await transport.handleRequest(req)), limitHeaders);
  } finally {
    await server.close();
  }
});

/** No server-initiated stream and no sessions: GET and DELETE are refused after authentication. */
const notAllowed = logged(async (req, as) => {
  const principal = as(await authenticateCaller(req.headers.get("authorization")));
  await enforceRateLimit(rateLimits().mcpToken, principal.tokenId);
  throw new ApiError(
    405,
    "This MCP endpoint is stateless: send JSON-RPC messages with POST (Streamable HTTP, no server-initiated stream or session).",
    { allow: "POST" },
  );
});

export const GET = notAllowed;
export const DELETE = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;

/**
 * The transport answers a malformed request (not JSON, not JSON-RPC, wrong Accept or content
 * type, too large) with a JSON-RPC error and no `detail`; every error of this service carries
 * one (spec §7), so it is added next to the JSON-RPC fields, which MCP clients read.
 */
async function withDetail(res: Response): Promise<Response> {
  if (res.status < 400) return res;
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  const object = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const message = (object.error as { message?: unknown } | undefined)?.message;
  const detail = object.detail ?? (typeof message === "string" ? message : text || `HTTP ${res.status}`);
  const headers = new Headers(res.headers);
  headers.set("content-type", "application/json; charset=utf-8");
  headers.delete("content-length");
  return new Response(JSON.stringify({ ...object, detail }), { status: res.status, headers });
}

/** /mcp is not behind withAuth, so it gets the same request id, error mapping and log line here. */
function logged(handler: (req: NextRequest, as: (p: McpPrincipal) => McpPrincipal) => Promise<Response>) {
  return async (req: NextRequest): Promise<Response> => {
    const t0 = performance.now();
    const requestId = requestIdFrom(req.headers);
    return runWithContext({ requestId, ip: clientIp(req.headers) }, async () => {
      let principal: McpPrincipal | null = null;
      let res: Response;
      // Before anything else, without authentication: a browser page of another origin (or a
      // rebound host name) gets nothing from this endpoint (lib/mcp/check-origin.ts).
      const foreign = foreignOriginProblem(req.headers);
      try {
        res = foreign ? jsonRpcError(403, foreign) : await handler(req, (p) => (principal = p));
      } catch (e) {
        res = errorResponse(e);
      }
      res = withHeaders(res, {
        "x-request-id": requestId,
        // Every 401 says where a client learns how to get a token (RFC 9728 §5.1, CONTRACT §10).
        ...(res.status === 401 && {
          "www-authenticate": bearerChallenge(req.headers.get("authorization") !== null),
        }),
      });
      const who = principal as McpPrincipal | null;
      logRequest({
        method: req.method,
        path: "/mcp",
        query: req.nextUrl.searchParams,
        status: res.status,
        startedAt: t0,
        teamId: who?.server.teamId,
        principal: who ? (who.via === "oauth" ? "oauth" : "mcp_token") : null,
      });
      return res;
    });
  };
}

/** A refusal in the transport's own shape (a JSON-RPC error with no id), with `detail`. */
function jsonRpcError(status: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null, detail: message }), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

/** The transport's responses may have immutable headers; then a copy carries them. */
function withHeaders(res: Response, headers: Record<string, string>): Response {
  try {
    for (const [name, value] of Object.entries(headers)) res.headers.set(name, value);
    return res;
  } catch {
    const copy = new Headers(res.headers);
    for (const [name, value] of Object.entries(headers)) copy.set(name, value);
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers: copy });
  }
}
