import "server-only";
import { z } from "zod";
import { OPERATIONS, searchOperations } from "@/lib/operations/registry";
import {
  inputJsonSchema,
  OperationRefusal,
  operationOrRefuse,
  type ScopedConnection,
} from "@/lib/operations/run-operation";
import type { Operation } from "@/lib/platforms/kit/operation-types";
import type { FindOperationsOutput, GetOperationInputsOutput } from "@/lib/schemas/mcp-tools";

// The five operation tools of CONTRACT §8, as data both of their callers read: /mcp (lib/mcp)
// and the agent (lib/agents). Each caller runs them in its own way (who may write, where a
// request is filed, how a call is logged); what a tool is called, what it takes and how the
// catalogue is searched and described is said once, here.

export const OPERATION_TOOL_NAMES = [
  "find_operations",
  "get_operation_inputs",
  "run_operation",
  "run_write_operation",
  "get_operation_result",
] as const;
export type OperationToolName = (typeof OPERATION_TOOL_NAMES)[number];

const text = (max: number) => z.string().max(max);
const connectionIdArg = z.string().min(1).max(255);
const operationIdArg = text(200).describe("The operation's id from find_operations, e.g. sandbox.report.");
const inputArg = z
  .record(z.string(), z.unknown())
  .optional()
  .describe("The operation's input, as get_operation_inputs describes it.");

/** Each tool's title, description (for a model to read) and arguments. */
export const OPERATION_TOOLS: Record<
  OperationToolName,
  { title: string; description: string; inputSchema: z.ZodRawShape }
> = {
  find_operations: {
    title: "Find operations",
    description:
      'Searches the catalogue of operations (reads and writes on the connected platforms) that this session\'s connections can run. Give a few words of intent ("pause campaign", "post slack message", "ga4 sessions report"); leave query out to list every runnable operation. ' +
      "Each result has its id, kind (read or write), whether a write needs approval, its credits and the connection_ids that can run it. Then call get_operation_inputs.",
    inputSchema: {
      query: text(500).optional().describe("Words describing what you want to do."),
      connection_id: connectionIdArg.optional().describe("Only operations this connection can run."),
    },
  },
  get_operation_inputs: {
    title: "Get an operation's inputs",
    description:
      "The JSON Schema of an operation's input (connection_id is passed beside it, not inside) and an example input.",
    inputSchema: { operation_id: operationIdArg },
  },
  run_operation: {
    title: "Run an operation",
    description:
      "Runs a read operation of the catalogue on one connection and returns its result. Writes that need approval are refused here: use run_write_operation.",
    inputSchema: {
      operation_id: operationIdArg,
      connection_id: connectionIdArg.describe("The connection to run it on (find_operations names the ones that can)."),
      input: inputArg,
    },
  },
  run_write_operation: {
    title: "Run a write operation",
    description:
      "Asks to run a write (pause a campaign, change a budget, post a message, …). Depending on this MCP server's write policy it is refused (writes off), run at once (the result is returned), or filed for a person's approval: " +
      'then the answer is {approval_id, status: "pending", summary, approve_url, expires_at}; tell the user what will happen and where to approve it, and call get_operation_result to learn the outcome.',
    inputSchema: {
      operation_id: operationIdArg,
      connection_id: connectionIdArg.describe("The connection to run it on."),
      input: inputArg,
    },
  },
  get_operation_result: {
    title: "Get a write's outcome",
    description:
      "The status of a write filed for approval (pending, running, rejected, expired, cancelled, succeeded, failed) and, once it ran, its result or error.",
    inputSchema: { approval_id: text(100).describe("The approval_id run_write_operation answered with.") },
  },
};

/**
 * What run_operation runs: reads, and writes nobody has to approve; every other write goes
 * through run_write_operation.
 */
export const runsWithoutApproval = (op: Operation) => op.kind === "read" || !op.requiresApproval;

/** The connections of `scope` that can run `op`, in scope order. */
export const runnableIn = (scope: readonly ScopedConnection[], op: Operation) =>
  scope.filter((c) => op.types.includes(c.type)).map((c) => c.id);

/** find_operations: the catalogue entries `scope` (or its one connection `connectionId`) can run, best match first. */
export function findOperationsIn(
  scope: readonly ScopedConnection[],
  query: unknown,
  connectionId: unknown,
): FindOperationsOutput {
  let connections = scope;
  if (typeof connectionId === "string") {
    connections = scope.filter((c) => c.id === connectionId);
    if (!connections.length)
      throw new OperationRefusal(
        `Connection ${connectionId.slice(0, 255)} is not among the connections this session may use. Call list_connections (or find_operations without connection_id) for the ones it may use.`,
        "connection_out_of_scope",
      );
  }
  const runnable = OPERATIONS.filter((op) => runnableIn(connections, op).length > 0);
  const found = searchOperations(typeof query === "string" ? query : undefined, runnable);
  return {
    operations: found.map((op) => ({
      id: op.id,
      title: op.title,
      description: op.description,
      kind: op.kind,
      requires_approval: op.requiresApproval,
      credits: op.credits,
      connection_types: op.types,
      connection_ids: runnableIn(connections, op),
    })),
  };
}

/** get_operation_inputs: an operation's input as JSON Schema, and an example. */
export function operationInputs(operationId: unknown): GetOperationInputsOutput {
  const op = operationOrRefuse(operationId);
  return { operation_id: op.id, input_schema: inputJsonSchema(op), example: op.example };
}
