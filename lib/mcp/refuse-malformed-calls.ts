import "server-only";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CallToolRequestSchema, ErrorCode, isJSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";

// A tools/call whose envelope is malformed (no params, no tool name, `arguments` that is not an
// object) never reaches a tool: the SDK's own parse would answer it with JSON-RPC -32603 and a
// raw zod dump. It is answered here instead with -32602 (Invalid params) and a sentence. A bad
// argument inside the object is the tool's to refuse, as an MCP tool error (CONTRACT §8).

const kindOf = (v: unknown) =>
  v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "string" ? "a string" : `a ${typeof v}`;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** Why a tools/call's params cannot be a call (a sentence), or null. */
function toolCallProblem(params: unknown): string | null {
  if (!isObject(params))
    return `tools/call needs params: an object with the tool's name and its arguments, not ${params === undefined ? "nothing" : kindOf(params)}.`;
  if (typeof params.name !== "string" || !params.name)
    return "tools/call needs params.name: the name of a tool that tools/list gives (a string).";
  if (params.arguments !== undefined && !isObject(params.arguments))
    return `params.arguments must be an object of the tool's named arguments (like {"connection_id": "…"}), not ${kindOf(params.arguments)}.`;
  const parsed = CallToolRequestSchema.safeParse({ method: "tools/call", params });
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  const at = issue?.path.filter((p) => p !== "params").join(".");
  return `tools/call params are malformed${at ? ` at params.${at}` : ""}: ${issue?.message ?? "not a tool call"}.`;
}

/** Answers malformed tools/call requests arriving on `transport` before the server sees them. */
export function refuseMalformedCalls(transport: Transport): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (isJSONRPCRequest(message) && message.method === "tools/call") {
      const problem = toolCallProblem(message.params);
      if (problem) {
        void transport.send({
          jsonrpc: "2.0",
          id: message.id,
          error: { code: ErrorCode.InvalidParams, message: problem },
        });
        return;
      }
    }
    deliver?.(message, extra);
  };
}
