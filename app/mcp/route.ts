import type { NextRequest } from "next/server";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { ApiError, errorResponse } from "@/lib/api/errors";
import { authenticateMcpToken } from "@/lib/mcp/authenticate-mcp-token";
import { readNarrowing, resolveScope } from "@/lib/mcp/request-scope";
import { buildMcpServer } from "@/lib/mcp/build-server";
import { enforceRateLimit } from "@/lib/rate-limit/hit-rate-limit";
import { rateLimits } from "@/lib/rate-limit/limits";

export const dynamic = "force-dynamic";

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The MCP endpoint (spec §4.13) over Streamable HTTP, stateless: every POST carries its bearer
 * MCP token and may carry its own narrowing, so each request gets a server built for exactly
 * the connections it may use. Answers are plain JSON (no SSE stream to hold open), which lets any
 * number of app instances serve one client.
 */
export async function POST(req: NextRequest): Promise<Response> {
  try {
    const principal = await authenticateMcpToken(req.headers.get("authorization"));
    const limitHeaders = await enforceRateLimit(rateLimits().mcpToken, principal.tokenId);
    const scope = await resolveScope(principal, readNarrowing(req.headers, req.nextUrl.searchParams));
    const server = buildMcpServer({ principal, scope });
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true, maxRequestBodySize: MAX_BODY_BYTES });
    await server.connect(transport);
    try {
      return withHeaders(await transport.handleRequest(req), limitHeaders);
    } finally {
      await server.close();
    }
  } catch (e) {
    return errorResponse(e);
  }
}

/** No server-initiated stream and no sessions: GET and DELETE are refused after authentication. */
async function notAllowed(req: NextRequest): Promise<Response> {
  try {
    const principal = await authenticateMcpToken(req.headers.get("authorization"));
    await enforceRateLimit(rateLimits().mcpToken, principal.tokenId);
    throw new ApiError(405, "This MCP endpoint is stateless: send JSON-RPC messages with POST (Streamable HTTP, no server-initiated stream or session).", { allow: "POST" });
  } catch (e) {
    return errorResponse(e);
  }
}

export const GET = notAllowed;
export const DELETE = notAllowed;

/** The transport's Response may have immutable headers; then a copy carries them. */
function withHeaders(res: Response, headers: Record<string, string>): Response {
  try {
    for (const [name, value] of Object.entries(headers)) res.headers.set(name, value);
    return res;
  } catch {
    const copy = new Response(res.body, res);
    for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
    return copy;
  }
}
