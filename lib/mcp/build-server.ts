import "server-only";
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { findConnectionType } from "@/lib/platforms/registry";
import { DIRECT_TOOL_OPERATIONS, OPERATIONS } from "@/lib/operations/registry";
import {
  findOperationsIn,
  OPERATION_TOOLS,
  operationInputs,
  runnableIn,
  runsWithoutApproval,
} from "@/lib/operations/operation-tools";
import {
  checkRun,
  describeFailure,
  executeOperation,
  OperationRefusal,
  operationOrRefuse,
  type ScopedConnection,
} from "@/lib/operations/run-operation";
import type { Operation } from "@/lib/platforms/kit/operation-types";
import { fileApproval, mcpOrigin, readApprovalResult } from "@/lib/approvals/file-approval";
import { WRITE_POLICY_SETTINGS_HINT } from "@/lib/schemas/write-policy";
import { callTool, type McpRequest, type Outcome, type ToolSpec } from "@/lib/mcp/call-tool";
import { toolHints } from "@/lib/mcp/tool-hints";
import {
  findOperationsOutput,
  getOperationInputsOutput,
  getOperationResultOutput,
  listConnectionsOutput,
  type GetOperationResultOutput,
  type ListConnectionsOutput,
} from "@/lib/schemas/mcp-tools";

/** tools/list never holds more than this (CONTRACT §8): the catalogue is reached through discovery. */
const MAX_LISTED_TOOLS = 25;

const describeConnection = (c: ScopedConnection) =>
  `${c.id} (${findConnectionType(c.type)?.name ?? c.type}${c.name ? `: ${c.name}` : ""}${c.externalId ? `, external_id ${c.externalId}` : ""})`;

const ok = (result: unknown, credits = 0, cacheHit = false): Outcome => ({ ok: true, result, credits, cacheHit });

/**
 * A run of `op` in this request, checked (checkRun) unless the caller already did; its outcome
 * named after the operation.
 */
async function runChecked(
  req: McpRequest,
  op: Operation,
  connectionId: unknown,
  input: unknown,
  checked = checkRun(op, req.scope, connectionId, input),
): Promise<Outcome> {
  const run = await executeOperation(req.principal.server.teamId, op, checked.connection, checked.input);
  return { ...ok(run.result, run.credits, run.cacheHit), operation: { id: op.id, version: op.operationVersion } };
}

/**
 * Failures of a call that named an operation are logged under that operation's id (what it
 * tried); an unknown id under the tool's own.
 */
async function named(opId: unknown, work: (op: Operation) => Promise<Outcome>): Promise<Outcome> {
  const op = operationOrRefuse(opId);
  try {
    return await work(op);
  } catch (e) {
    return {
      ok: false,
      error: describeFailure(e),
      code: e instanceof OperationRefusal ? e.code : undefined,
      operation: { id: op.id, version: op.operationVersion },
    };
  }
}

function directTool(req: McpRequest, op: Operation): ToolSpec {
  return {
    name: op.toolName!,
    operationId: op.id,
    operationVersion: op.operationVersion,
    spends: true,
    run: async ({ connection_id, ...input }) => runChecked(req, op, connection_id, input),
  };
}

function listConnections(req: McpRequest): ToolSpec {
  return {
    name: "list_connections",
    operationId: "mcp.list_connections",
    operationVersion: 1,
    spends: true,
    run: async () =>
      ok({
        connections: req.scope.map((c) => ({
          id: c.id,
          type: c.type,
          type_name: findConnectionType(c.type)?.name ?? c.type,
          display_name: c.name,
          external_id: c.externalId,
          is_private: c.isPrivate,
          tools: DIRECT_TOOL_OPERATIONS.filter((op) => op.types.includes(c.type)).map((op) => op.toolName!),
        })),
      } satisfies ListConnectionsOutput),
  };
}

function findOperations(req: McpRequest): ToolSpec {
  return {
    name: "find_operations",
    operationId: "mcp.find_operations",
    operationVersion: 1,
    spends: true,
    run: async ({ query, connection_id }) => ok(findOperationsIn(req.scope, query, connection_id)),
  };
}

function getOperationInputs(): ToolSpec {
  return {
    name: "get_operation_inputs",
    operationId: "mcp.get_operation_inputs",
    operationVersion: 1,
    spends: true,
    run: async ({ operation_id }) => ok(operationInputs(operation_id)),
  };
}

function runOperation(req: McpRequest): ToolSpec {
  return {
    name: "run_operation",
    operationId: "mcp.run_operation",
    operationVersion: 1,
    spends: true,
    run: ({ operation_id, connection_id, input }) =>
      named(operation_id, async (op) => {
        if (!runsWithoutApproval(op))
          throw new OperationRefusal(
            `${op.id} is a write that needs a person's approval: call run_write_operation with the same arguments.`,
            "approval_required",
          );
        if (op.kind === "write" && req.principal.server.writePolicy === "off") throw writesOff(req);
        return runChecked(req, op, connection_id, input);
      }),
  };
}

const writesOff = (req: McpRequest) =>
  new OperationRefusal(
    `Writes are off for the MCP server “${req.principal.server.name}”: it runs reads only. ${WRITE_POLICY_SETTINGS_HINT}`,
    "writes_off",
  );

function runWriteOperation(req: McpRequest): ToolSpec {
  return {
    name: "run_write_operation",
    operationId: "mcp.run_write_operation",
    operationVersion: 1,
    spends: true,
    run: ({ operation_id, connection_id, input }) =>
      named(operation_id, async (op) => {
        if (op.kind !== "write") throw new OperationRefusal(`${op.id} is a read: call run_operation.`, "not_a_write");
        const checked = checkRun(op, req.scope, connection_id, input);
        const policy = req.principal.server.writePolicy;
        if (policy === "off") throw writesOff(req);
        if (policy === "allowed" || !op.requiresApproval) return runChecked(req, op, connection_id, input, checked);
        const filed = await fileApproval(mcpOrigin(req.principal), op, checked.connection, checked.input);
        return {
          ...ok(filed.answer),
          say: filed.say,
          operation: { id: "mcp.run_write_operation", version: 1 },
          metadata: { approval_id: filed.answer.approval_id, requested_operation_id: op.id },
        };
      }),
  };
}

function getOperationResult(req: McpRequest): ToolSpec {
  return {
    name: "get_operation_result",
    operationId: "mcp.get_operation_result",
    operationVersion: 1,
    spends: false,
    run: async ({ approval_id }) => {
      if (typeof approval_id !== "string" || !approval_id)
        throw new OperationRefusal(
          "approval_id is required: the id run_write_operation answered with.",
          "invalid_input",
        );
      return ok(
        (await readApprovalResult(
          { teamId: req.principal.server.teamId, mcpServerId: req.principal.server.id },
          approval_id,
          req.principal.user?.id ?? "",
        )) satisfies GetOperationResultOutput,
      );
    },
  };
}

type ToolConfig = {
  title: string;
  description: string;
  inputSchema: z.ZodRawShape;
  /**
   * For a result of one shape (a direct read's is its operation's), which the tool then also
   * returns as structuredContent.
   */
  outputSchema?: z.ZodRawShape;
  /** The catalogue operations a call may run, none for a tool on Patchbay's own data: its hints come from them. */
  runs: readonly Operation[];
};

/**
 * The MCP server one request talks to: list_connections; the direct reads that work on at least
 * one connection in this request's scope (a tool with nothing to run on is not offered); and the
 * discovery tools through which the whole catalogue is found, described and run.
 */
export function buildMcpServer(req: McpRequest): McpServer {
  const server = new McpServer(
    { name: "patchbay", title: `Patchbay · ${req.principal.server.name}`, version: "1.0.0" },
    {
      capabilities: { tools: {} },
      instructions:
        "Tools read and change data in the team's connected accounts (analytics, ads, stores, messaging, CRM). Call list_connections first: it names the connections this session may use. " +
        "Beyond the direct read tools, the whole catalogue is reached through find_operations (search by intent), get_operation_inputs (an operation's fields) and run_operation; " +
        "writes go through run_write_operation, which may file a request a person approves in the Patchbay dashboard: then show the user the summary and approve_url, and check the outcome with get_operation_result.",
    },
  );
  // The title goes in the annotations too: clients of the 2025-03-26 revision read it only there.
  const register = (spec: ToolSpec, { runs, ...config }: ToolConfig) =>
    server.registerTool(
      spec.name,
      { ...config, annotations: { title: config.title, ...toolHints(runs) } },
      async (args: Record<string, unknown>) => callTool(req, spec, args ?? {}),
    );

  register(listConnections(req), {
    title: "List connections",
    description:
      "The connected accounts this session may use (id, type, name, external_id) and, for each, the direct tools that read from it.",
    inputSchema: {},
    outputSchema: listConnectionsOutput,
    runs: [],
  });
  const connectionIdArg = z.string().min(1).max(255);
  const discovery: [ToolSpec, ToolConfig][] = [
    [findOperations(req), { ...OPERATION_TOOLS.find_operations, outputSchema: findOperationsOutput, runs: [] }],
    [
      getOperationInputs(),
      { ...OPERATION_TOOLS.get_operation_inputs, outputSchema: getOperationInputsOutput, runs: [] },
    ],
    [runOperation(req), { ...OPERATION_TOOLS.run_operation, runs: OPERATIONS.filter(runsWithoutApproval) }],
    [
      runWriteOperation(req),
      { ...OPERATION_TOOLS.run_write_operation, runs: OPERATIONS.filter((op) => op.kind === "write") },
    ],
    [
      getOperationResult(req),
      { ...OPERATION_TOOLS.get_operation_result, outputSchema: getOperationResultOutput, runs: [] },
    ],
  ];
  // Direct reads with something to run on, within the cap; the sandbox's demo read goes first
  // when every real family and the sandbox are in scope at once (it stays reachable through run_operation).
  const direct = DIRECT_TOOL_OPERATIONS.filter((op) => runnableIn(req.scope, op).length > 0);
  const room = MAX_LISTED_TOOLS - 1 - discovery.length;
  const listed = direct.length > room ? direct.filter((op) => op.id !== "sandbox.report").slice(0, room) : direct;
  for (const op of listed) {
    const usable = req.scope.filter((c) => op.types.includes(c.type));
    register(directTool(req, op), {
      title: op.title,
      description: op.description,
      inputSchema: {
        connection_id: connectionIdArg.describe(
          `The connection to read from. This session may use: ${usable.map(describeConnection).join("; ")}.`,
        ),
        ...op.input,
      },
      // The operation's result, returned as structuredContent too (callTool): the same shape the
      // catalogue serves as output_schema.
      outputSchema: op.output,
      runs: [op],
    });
  }
  for (const [spec, config] of discovery) register(spec, config);
  return server;
}
