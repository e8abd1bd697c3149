import "server-only";
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { findConnectionType } from "@/lib/providers/registry";
import { PROVIDER_TOOLS } from "@/lib/mcp/tools";
import { callTool, providerToolSpec, type McpRequest, type ToolSpec } from "@/lib/mcp/call-tool";
import type { ToolConnection } from "@/lib/mcp/tools/types";

const describeConnection = (c: ToolConnection) =>
  `${c.id} (${findConnectionType(c.type)?.name ?? c.type}${c.name ? `: ${c.name}` : ""}${c.externalId ? `, external_id ${c.externalId}` : ""})`;

function listConnectionsSpec(req: McpRequest): ToolSpec {
  return {
    name: "list_connections",
    operationId: "mcp.list_connections",
    operationVersion: 1,
    run: async () => ({
      ok: true,
      credits: 0,
      cacheHit: false,
      result: {
        connections: req.scope.map((c) => ({
          id: c.id,
          type: c.type,
          type_name: findConnectionType(c.type)?.name ?? c.type,
          display_name: c.name,
          external_id: c.externalId,
          is_private: c.isPrivate,
          tools: PROVIDER_TOOLS.filter((t) => t.types.includes(c.type)).map((t) => t.name),
        })),
      },
    }),
  };
}

/**
 * The MCP server one request talks to: list_connections, and the provider reads that work on
 * at least one connection in this request's scope (a tool with nothing to run on is not offered).
 */
export function buildMcpServer(req: McpRequest): McpServer {
  const server = new McpServer(
    { name: "patchbay", title: `Patchbay · ${req.principal.server.name}`, version: "1.0.0" },
    {
      capabilities: { tools: {} },
      instructions:
        "Tools read data from the team's connected accounts (analytics, ads, stores, messaging). Call list_connections first: it names the connections this session may use and the tools for each; pass a connection's id as connection_id.",
    },
  );
  const list = listConnectionsSpec(req);
  server.registerTool(
    "list_connections",
    {
      title: "List connections",
      description: "The connected accounts this session may use (id, type, name, external_id) and, for each, the tools that read from it.",
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async () => callTool(req, list, {}),
  );
  for (const tool of PROVIDER_TOOLS) {
    const usable = req.scope.filter((c) => tool.types.includes(c.type));
    if (!usable.length) continue;
    const spec = providerToolSpec(req, tool);
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: {
          connection_id: z.string().min(1).max(255).describe(`The connection to read from. This session may use: ${usable.map(describeConnection).join("; ")}.`),
          ...tool.input,
        },
        annotations: { readOnlyHint: true, openWorldHint: true },
      },
      async (args: Record<string, unknown>) => callTool(req, spec, args),
    );
  }
  return server;
}
