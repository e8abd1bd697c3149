import "server-only";
import type { ProviderTool } from "@/lib/mcp/tools/types";
import { tools as sandbox } from "@/lib/mcp/tools/sandbox";
import { tools as google } from "@/lib/mcp/tools/google";
import { tools as meta } from "@/lib/mcp/tools/meta";
import { tools as linkedin } from "@/lib/mcp/tools/linkedin";
import { tools as tiktok } from "@/lib/mcp/tools/tiktok";
import { tools as shopify } from "@/lib/mcp/tools/shopify";
import { tools as slack } from "@/lib/mcp/tools/slack";
import { tools as hubspot } from "@/lib/mcp/tools/hubspot";
import { tools as apiKeys } from "@/lib/mcp/tools/api-keys";

/** Every provider read the MCP endpoint exposes as a tool (besides list_connections). */
export const PROVIDER_TOOLS: ProviderTool[] = [...sandbox, ...google, ...meta, ...linkedin, ...tiktok, ...shopify, ...slack, ...hubspot, ...apiKeys];

/** The tools that run on connections of `type`. */
export function toolsForType(type: string): ProviderTool[] {
  return PROVIDER_TOOLS.filter((t) => t.types.includes(type));
}
