import type { z } from "zod";
import type { FreshCredentials } from "@/lib/providers/types";

/** A connection a tool call may use: in the request's scope, visible to the MCP server's owner. */
export type ToolConnection = { id: string; type: string; name: string | null; externalId: string | null; isPrivate: boolean };

export type ToolContext = {
  connection: ToolConnection;
  /** The connection's credentials, OAuth tokens refreshed when near expiry (lib/connections/fresh-credentials). */
  credentials: FreshCredentials;
};

/**
 * One read operation on a provider, exposed as an MCP tool. The framework (lib/mcp/call-tool.ts)
 * adds the `connection_id` argument, checks it is in the request's scope and of one of `types`,
 * checks the team's credits, serves answers from the response cache for `cacheTtlSeconds`, and
 * writes the call's operation log and ledger charge. `run` only talks to the provider.
 *
 * `run` returns the JSON result for the model. It throws ProviderRejection (the provider said no:
 * bad token, missing scope, bad query — the reason text is shown) or ProviderUnavailable (could
 * not reach it), both from lib/providers/types, or ToolInputError for input the provider would
 * never accept.
 */
export type ProviderTool = {
  /** snake_case MCP tool name, e.g. "ga4_run_report". */
  name: string;
  title: string;
  /** What it returns and when to use it; the model reads this. */
  description: string;
  /** Connection types it runs on, e.g. ["ga4"]. */
  types: string[];
  /** The operation_id of its logs, e.g. "ga4.run_report". */
  operationId: string;
  operationVersion: number;
  /** Credits one call that reaches the provider costs. */
  credits: number;
  /** How long an identical call (same connection and arguments) is answered from cache; 0 = never. */
  cacheTtlSeconds: number;
  /** The tool's own arguments (zod shapes with .describe()); `connection_id` is added by the framework. */
  input: z.ZodRawShape;
  run(ctx: ToolContext, input: Record<string, unknown>): Promise<unknown>;
};

/** Arguments the provider would refuse, caught before calling it. */
export class ToolInputError extends Error {}
