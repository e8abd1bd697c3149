import type { NextRequest } from "next/server";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { ApiError, errorResponse } from "@/lib/api/errors";
import { authenticateMcpToken } from "@/lib/mcp/authenticate-mcp-token";
import { readNarrowing, resolveScope } from "@/lib/mcp/request-scope";
import { buildMcpServer } from "@/lib/mcp/build-server";

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
    const scope = await resolveScope(principal, readNarrowing(req.headers, req.nextUrl.searchParams));
    const server = buildMcpServer({ principal, scope });
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true, maxRequestBodySize: MAX_BODY_BYTES });
    await server.connect(transport);
    try {
      return withDetail(await transport.handleRequest(req));
    } finally {
      await server.close();
    }
  } catch (e) {
    return errorResponse(e);
  }
}

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

/** No server-initiated stream and no sessions: GET and DELETE are refused after authentication. */
async function notAllowed(req: NextRequest): Promise<Response> {
  try {
    await authenticateMcpToken(req.headers.get("authorization"));
    throw new ApiError(405, "This MCP endpoint is stateless: send JSON-RPC messages with POST (Streamable HTTP, no server-initiated stream or session).", { allow: "POST" });
  } catch (e) {
    return errorResponse(e);
  }
}

export const GET = notAllowed;
export const DELETE = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
