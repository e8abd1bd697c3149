import type { ProviderTool } from "@/lib/mcp/tools/types";

/** Every provider read the MCP endpoint offers (filled by the provider families). */
export const PROVIDER_TOOLS: ProviderTool[] = [];

export const toolsForType = (type: string) => PROVIDER_TOOLS.filter((t) => t.types.includes(type));
