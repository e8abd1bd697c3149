import { authorizationServerMetadata } from "@/lib/mcp-oauth/metadata";
import { oauthRoute, preflight } from "@/lib/mcp-oauth/oauth-route";

export const dynamic = "force-dynamic";

/** RFC 8414: the authorization server's endpoints and what it supports. */
export const GET = oauthRoute("/.well-known/oauth-authorization-server", async () => authorizationServerMetadata());
export const OPTIONS = preflight;
