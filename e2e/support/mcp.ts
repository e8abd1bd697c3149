import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { baseURL } from "../fixtures";

/** The official SDK's client, connected over Streamable HTTP to this run's /mcp. */
export async function mcpClient(token: string, options: { query?: string; serviceContext?: string } = {}) {
  const url = new URL(`/mcp${options.query ?? ""}`, baseURL());
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (options.serviceContext !== undefined) headers["x-service-context"] = options.serviceContext;
  const client = new Client({ name: "patchbay-tests", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

/** The connection ids list_connections names, in order. */
export async function listedIds(client: Client): Promise<string[]> {
  const result = await client.callTool({ name: "list_connections", arguments: {} });
  return (result.structuredContent as { connections: { id: string }[] }).connections.map((c) => c.id);
}

/** A raw JSON-RPC POST to /mcp, for what the SDK client would not send. */
export async function rawMcp(
  headers: Record<string, string>,
  body: unknown = { jsonrpc: "2.0", id: 1, method: "tools/list" },
  query = "",
) {
  return fetch(new URL(`/mcp${query}`, baseURL()), {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
}
