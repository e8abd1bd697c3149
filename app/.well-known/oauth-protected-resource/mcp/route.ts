import { protectedResourceMetadata } from "@/lib/mcp-oauth/metadata";
import { oauthRoute, preflight } from "@/lib/mcp-oauth/oauth-route";

export const dynamic = "force-dynamic";

/** RFC 9728 for the resource /mcp: the address every 401 of /mcp names. */
export const GET = oauthRoute("/.well-known/oauth-protected-resource/mcp", async () => protectedResourceMetadata());
export const OPTIONS = preflight;
