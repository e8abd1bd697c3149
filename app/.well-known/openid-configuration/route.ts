import { authorizationServerMetadata } from "@/lib/mcp-oauth/metadata";
import { oauthRoute, preflight } from "@/lib/mcp-oauth/oauth-route";

export const dynamic = "force-dynamic";

/** The same metadata where OpenID-style clients look for it (MCP clients try both paths). */
export const GET = oauthRoute("/.well-known/openid-configuration", async () => authorizationServerMetadata());
export const OPTIONS = preflight;
