import "server-only";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { noCreditsLeft } from "@/lib/credits/no-credits-left";
import { recordOperations } from "@/lib/logs/record-operations";
import { describeFailure, OperationRefusal, type ScopedConnection } from "@/lib/operations/run-operation";
import type { McpPrincipal } from "@/lib/mcp-tokens/authenticate-mcp-token";

/** One /mcp request: who calls, and the connections it may use (spec §4.13). */
export type McpRequest = { principal: McpPrincipal; scope: ScopedConnection[] };

/**
 * What a tool's work produced, before it is logged and charged. `operation` names what ran when
 * it is not the tool's own operation (run_operation's, an unknown id's tool default otherwise).
 */
export type Outcome = {
  operation?: { id: string; version: number };
  metadata?: Record<string, unknown>;
  /** A sentence for the model to show the user, put before the JSON in the text content. */
  say?: string;
} & ({ ok: true; result: unknown; credits: number; cacheHit: boolean } | { ok: false; error: string; code?: string });

/** A tool the framework runs: list_connections, a direct read, a discovery tool. */
export type ToolSpec = {
  name: string;
  /** The operation_id its log carries unless the outcome names another. */
  operationId: string;
  operationVersion: number;
  /**
   * Whether the call is refused when the team has no credits left: every tool is, as before the
   * catalogue, except get_operation_result (an agent can always learn what became of a write).
   */
  spends: boolean;
  run: (args: Record<string, unknown>) => Promise<Outcome>;
};

const seconds = () => Math.floor(Date.now() / 1000);

/**
 * Every tool call goes through here: refused when it may spend and the team has no credits left,
 * otherwise run; either way it becomes exactly one operation log (source `mcp`,
 * metadata.tool_name) and one ledger entry (service `mcp`), written together. Credits: the
 * operation's price when it reached the provider and answered; nothing for a cache hit, a
 * refusal or an error. A call that overshoots the balance is not rolled back (spec §2.6).
 */
export async function callTool(
  req: McpRequest,
  tool: ToolSpec,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const { principal } = req;
  const startedAt = seconds();
  const outcome: Outcome = await (async () => {
    if (tool.spends) {
      const refusal = await noCreditsLeft(principal.server.teamId);
      if (refusal) return { ok: false as const, error: refusal, code: "no_credits" };
    }
    return tool.run(args);
  })().catch((e: unknown): Outcome => ({
    ok: false,
    error: describeFailure(e),
    code: e instanceof OperationRefusal ? e.code : undefined,
  }));
  const credits = outcome.ok ? outcome.credits : 0;
  const source = { type: "mcp" as const, id: principal.server.id, name: principal.server.name };
  // A private connection reaches a request only through its owner's token on her own server: a
  // call on one (or one that lists them) is hers to read in the logs.
  const named = typeof args.connection_id === "string" ? req.scope.find((c) => c.id === args.connection_id) : undefined;
  const privateTo = (named ? named.isPrivate : req.scope.some((c) => c.isPrivate))
    ? principal.server.ownerUserId
    : null;
  await recordOperations(
    principal.server.teamId,
    [
      {
        operationId: outcome.operation?.id ?? tool.operationId,
        operationVersion: outcome.operation?.version ?? tool.operationVersion,
        status: outcome.ok ? "success" : "error",
        source,
        user: principal.user,
        startedAt,
        completedAt: seconds(),
        creditsUsed: credits,
        cacheHit: outcome.ok && outcome.cacheHit,
        input: args,
        output: outcome.ok
          ? outcome.result
          : { error: { message: outcome.error, ...(outcome.code && { code: outcome.code }) } },
        metadata: {
          tool_name: tool.name,
          ...(typeof args.connection_id === "string" ? { connection_id: args.connection_id } : {}),
          ...outcome.metadata,
        },
        privateTo,
        connectionId: named?.id ?? null,
      },
    ],
    {
      credits,
      service: source,
      user: principal.user,
      at: startedAt,
      attribution: [{ connectionId: named?.id ?? null, credits }],
    },
  );
  if (!outcome.ok) return { isError: true, content: [{ type: "text", text: outcome.error }] };
  const result = outcome.result;
  return {
    content: [{ type: "text", text: `${outcome.say ? `${outcome.say}\n\n` : ""}${JSON.stringify(result, null, 2)}` }],
    ...(result && typeof result === "object" && !Array.isArray(result)
      ? { structuredContent: result as Record<string, unknown> }
      : {}),
  };
}
