import "server-only";
import { authenticateMcpToken, type McpPrincipal } from "@/lib/mcp-tokens/authenticate-mcp-token";
import { authenticateAccessToken } from "@/lib/mcp-oauth/authenticate-access-token";
import { ACCESS_TOKEN_PATTERN } from "@/lib/mcp-oauth/tokens";

/** `Authorization: Bearer …` on /mcp: an OAuth access token (pbo_…) or an MCP token (pbm_…). */
export async function authenticateCaller(authorization: string | null): Promise<McpPrincipal> {
  const token = authorization ? /^Bearer[ ]+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
  if (token && ACCESS_TOKEN_PATTERN.test(token)) return authenticateAccessToken(token);
  return authenticateMcpToken(authorization);
}
