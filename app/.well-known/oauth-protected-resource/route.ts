import { protectedResourceMetadata } from "@/lib/mcp-oauth/metadata";
import { oauthRoute, preflight } from "@/lib/mcp-oauth/oauth-route";

export const dynamic = "force-dynamic";

/** RFC 9728 at the root path too, for clients that look there first. */
export const GET = oauthRoute("/.well-known/oauth-protected-resource", async () => protectedResourceMetadata());
export const OPTIONS = preflight;
