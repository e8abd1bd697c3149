import "server-only";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ZodError } from "zod";
import { ApiError, describeZodError } from "@/lib/api/errors";
import { getCreditBalance } from "@/lib/credits/get-credit-balance";
import { callWithCredentials } from "@/lib/connections/call-with-credentials";
import { recordOperations } from "@/lib/logs/record-operations";
import { ProviderRejection, ProviderUnavailable, UnsendableCredential } from "@/lib/providers/types";
import { cacheKey, cached, remember } from "@/lib/mcp/response-cache";
import { ToolInputError, type ProviderTool, type ToolConnection } from "@/lib/mcp/tools/types";
import type { McpPrincipal } from "@/lib/mcp/authenticate-mcp-token";
import { logger } from "@/lib/observability/logger";

/** One /mcp request: who calls, and the connections it may use (spec §4.13). */
export type McpRequest = { principal: McpPrincipal; scope: ToolConnection[] };

/** What a tool's work produced, before it is logged and charged. */
type Outcome = { ok: true; result: unknown; credits: number; cacheHit: boolean } | { ok: false; error: { message: string; [k: string]: unknown } };

/** A tool the framework runs: list_connections or a provider read. */
export type ToolSpec = { name: string; operationId: string; operationVersion: number; run: (args: Record<string, unknown>) => Promise<Outcome> };

const seconds = () => Math.floor(Date.now() / 1000);
const failure = (message: string, extra: Record<string, unknown> = {}): Outcome => ({ ok: false, error: { message, ...extra } });

/**
 * Every tool call goes through here: refused when the team has no credits left, otherwise run;
 * either way it becomes exactly one operation log (source `mcp`, metadata.tool_name) and one
 * ledger entry (service `mcp`), written together. Credits: the tool's price when it reached the
 * provider and answered; nothing for a cache hit, a refusal or an error. A call that overshoots
 * the balance is not rolled back (spec §2.6).
 */
export async function callTool(req: McpRequest, tool: ToolSpec, args: Record<string, unknown>): Promise<CallToolResult> {
  const { principal } = req;
  const startedAt = seconds();
  const balance = await getCreditBalance(principal.server.teamId);
  const outcome: Outcome =
    balance.credits_remaining <= 0
      ? failure(
          `This team has no credits left (${balance.credits_used} of ${balance.credits_limit} used this period; the balance is ${balance.credits_remaining}). Usage resets when the billing period ends${balance.billing_period_end ? ` (${new Date(balance.billing_period_end * 1000).toISOString()})` : ""}; an owner can change the plan before that.`,
          { code: "no_credits" },
        )
      : await tool.run(args).catch((e: unknown) => failure(describe(e)));
  const credits = outcome.ok ? outcome.credits : 0;
  const source = { type: "mcp" as const, id: principal.server.id, name: principal.server.name };
  await recordOperations(
    principal.server.teamId,
    [
      {
        operationId: tool.operationId,
        operationVersion: tool.operationVersion,
        status: outcome.ok ? "success" : "error",
        source,
        user: principal.user,
        startedAt,
        completedAt: seconds(),
        creditsUsed: credits,
        cacheHit: outcome.ok && outcome.cacheHit,
        input: args,
        output: outcome.ok ? outcome.result : { error: outcome.error },
        metadata: { tool_name: tool.name, ...(typeof args.connection_id === "string" ? { connection_id: args.connection_id } : {}) },
      },
    ],
    { credits, service: source, user: principal.user, at: startedAt },
  );
  if (!outcome.ok) return { isError: true, content: [{ type: "text", text: outcome.error.message }] };
  const result = outcome.result;
  return {
    content: [{ type: "text", text: JSON.stringify(result, null, 2) }],
    ...(result && typeof result === "object" && !Array.isArray(result) ? { structuredContent: result as Record<string, unknown> } : {}),
  };
}

/** A provider read as the framework runs it: scope and type checks, the cache, fresh credentials. */
export function providerToolSpec(req: McpRequest, tool: ProviderTool): ToolSpec {
  return {
    name: tool.name,
    operationId: tool.operationId,
    operationVersion: tool.operationVersion,
    run: async (args) => {
      const { connection_id: connectionId, ...input } = args as { connection_id: string } & Record<string, unknown>;
      const connection = req.scope.find((c) => c.id === connectionId);
      if (!connection) {
        return failure(`Connection ${connectionId} is not available to this request: it is not among the connections this MCP server may use${req.scope.length ? "" : " (this request may use none)"}. Call list_connections for the ones it may use.`, { code: "connection_out_of_scope" });
      }
      if (!tool.types.includes(connection.type)) {
        return failure(`${tool.name} works on ${tool.types.join(", ")} connections; ${connectionId} is a ${connection.type} connection.`, { code: "wrong_connection_type" });
      }
      const key = cacheKey(connection.id, tool.name, input);
      const hit = cached(key);
      if (hit) return { ok: true, result: hit.value, credits: 0, cacheHit: true };
      const result = await callWithCredentials(req.principal.server.teamId, connection.id, (credentials) => tool.run({ connection, credentials }, input));
      remember(key, result, tool.cacheTtlSeconds);
      return { ok: true, result, credits: tool.credits, cacheHit: false };
    },
  };
}

/** The message the model (and the log) gets for a failed call: the provider's reason, never internals. */
function describe(e: unknown): string {
  if (e instanceof ProviderRejection) return `${e.provider} refused the call: ${e.reason}`;
  if (e instanceof ProviderUnavailable) return e.reason;
  if (e instanceof UnsendableCredential || e instanceof ToolInputError) return e.message;
  if (e instanceof ApiError && typeof e.detail === "string") return e.detail;
  if (e instanceof ZodError) return `Invalid arguments: ${describeZodError(e)}`;
  logger.error("mcp tool call failed", { error: e });
  return "The tool failed inside Patchbay; the call was logged. Try again, and report it if it keeps happening.";
}
