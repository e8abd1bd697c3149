import "server-only";
import { recordOperations } from "@/lib/logs/record-operations";
import {
  checkRun,
  describeFailure,
  executeOperation,
  OperationRefusal,
  operationOrRefuse,
  type ScopedConnection,
} from "@/lib/operations/run-operation";
import {
  findOperationsIn,
  OPERATION_TOOL_NAMES,
  OPERATION_TOOLS,
  operationInputs,
  runsWithoutApproval,
  type OperationToolName,
} from "@/lib/operations/operation-tools";
import { fileApproval, readApprovalResult } from "@/lib/approvals/file-approval";
import type { Operation } from "@/lib/platforms/kit/operation-types";
import type { AgentStep } from "@/lib/schemas/agents";
import type { ModelTool } from "@/lib/agents/model-client";
import { holdOperationCredits, settleOperationCredits } from "@/lib/agents/turn-credits";

// The agent's tools are §8's five operation tools (lib/operations/operation-tools.ts), run for
// one turn of one conversation: limited to the connections the conversation may use now, every
// write that needs approval filed for a person (whatever the model or a tool result says: no tool
// decides an approval), each run one operation log under the conversation. Credits are not charged
// here: the turn's one ledger entry carries them (CONTRACT §11).

export type TurnContext = {
  teamId: string;
  user: { id: string; email: string };
  conversation: { id: string; title: string };
  turnId: string;
  scope: ScopedConnection[];
  /** What the operations this turn ran cost so far (held against the balance with the next one's price). */
  spent: () => number;
  /**
   * The model's context holds a result of the member's private connection: what it runs next may
   * carry that data in its input or output, so its logs are the member's alone too.
   */
  carriesPrivate: boolean;
};

/** What a tool call gave: the JSON the model reads, and a step when an operation ran or was filed. */
export type ToolOutcome = {
  output: Record<string, unknown>;
  step?: AgentStep;
  credits: number;
  /** A write filed for approval: the turn waits for it. */
  waitsFor?: string;
  /** Whose alone the result is (its log's `privateTo`), or null for the team's. */
  privateTo?: string | null;
};

const RUN_WRITE_FOR_AGENT =
  "Asks to run a write (pause a campaign, change a budget, post a message, …). A write that needs approval is filed for a person: the conversation then waits, and you receive the write's result (or why nothing was written) as this tool's result once a member decides. You cannot approve it yourself.";

/** The tools offered to the model, with the descriptions it reads. */
export const AGENT_TOOLS: Record<OperationToolName, ModelTool> = Object.fromEntries(
  OPERATION_TOOL_NAMES.map((name) => [
    name,
    {
      description: name === "run_write_operation" ? RUN_WRITE_FOR_AGENT : OPERATION_TOOLS[name].description,
      inputSchema: OPERATION_TOOLS[name].inputSchema,
    },
  ]),
) as Record<OperationToolName, ModelTool>;

const seconds = () => Math.floor(Date.now() / 1000);
/**
 * A refusal as the model reads it: `error` in words it may pass on to the member, what is wrong
 * field by field (`problems`), and apart from them which tool tells it more (`hint`), so the
 * member is never handed the name of a tool.
 */
const refused = (e: unknown): ToolOutcome => ({
  output:
    e instanceof OperationRefusal
      ? { error: e.message, ...(e.problems && { problems: e.problems }), ...(e.hint && { hint: e.hint }) }
      : { error: describeFailure(e) },
  credits: 0,
});

/** Runs one tool call of the model. Never throws: a refusal or failure is the tool's `error`. */
export async function runAgentTool(ctx: TurnContext, name: string, args: unknown): Promise<ToolOutcome> {
  const a = (args && typeof args === "object" ? args : {}) as Record<string, unknown>;
  try {
    switch (name) {
      case "find_operations":
        return { output: findOperationsIn(ctx.scope, a.query, a.connection_id), credits: 0 };
      case "get_operation_inputs":
        return { output: operationInputs(a.operation_id), credits: 0 };
      case "get_operation_result":
        if (typeof a.approval_id !== "string" || !a.approval_id)
          throw new OperationRefusal(
            "approval_id is required: the id run_write_operation answered with.",
            "invalid_input",
          );
        return {
          output: await readApprovalResult(
            { teamId: ctx.teamId, conversationId: ctx.conversation.id },
            a.approval_id,
            ctx.user.id,
          ),
          credits: 0,
        };
      case "run_operation":
      case "run_write_operation":
        return await runOrFile(ctx, name, a);
      default:
        throw new OperationRefusal(
          `There is no tool ${JSON.stringify(String(name).slice(0, 100))}: use ${OPERATION_TOOL_NAMES.join(", ")}.`,
          "unknown_tool",
        );
    }
  } catch (e) {
    return refused(e);
  }
}

async function runOrFile(
  ctx: TurnContext,
  tool: "run_operation" | "run_write_operation",
  a: Record<string, unknown>,
): Promise<ToolOutcome> {
  const op = operationOrRefuse(a.operation_id);
  if (tool === "run_operation" && !runsWithoutApproval(op))
    throw new OperationRefusal(
      `${op.id} is a write that needs a person's approval: call run_write_operation with the same arguments.`,
      "approval_required",
    );
  if (tool === "run_write_operation" && op.kind !== "write")
    throw new OperationRefusal(`${op.id} is a read: call run_operation.`, "not_a_write");
  const checked = checkRun(op, ctx.scope, a.connection_id, a.input);
  if (op.kind === "write" && op.requiresApproval) {
    // A request's input and summary are shown to every member when its connection is shared.
    if (ctx.carriesPrivate && !checked.connection.isPrivate)
      throw new OperationRefusal(
        "Not filed: this conversation has read the member's private connection, and a request to write to a shared connection shows its input to the whole team, which could carry that private data. Ask for this write in a conversation that does not use private connections.",
        "carries_private_data",
      );
    const filed = await fileApproval(
      {
        teamId: ctx.teamId,
        user: ctx.user,
        agent: { conversationId: ctx.conversation.id, turnId: ctx.turnId },
      },
      op,
      checked.connection,
      checked.input,
    );
    return {
      output: filed.answer,
      credits: 0,
      waitsFor: filed.answer.approval_id,
      step: {
        operation_id: op.id,
        connection_id: checked.connection.id,
        status: "pending",
        log_id: null,
        approval_id: filed.answer.approval_id,
      },
    };
  }
  const refusal = await holdOperationCredits(ctx.teamId, ctx.turnId, ctx.spent(), op.credits);
  if (refusal) throw new OperationRefusal(refusal, "no_credits");
  let credits = 0;
  try {
    const outcome = await runAndLog(ctx, tool, op, checked.connection, checked.input);
    credits = outcome.credits;
    return outcome;
  } finally {
    await settleOperationCredits(ctx.turnId, ctx.spent() + credits);
  }
}

/** Runs a checked operation and writes its one log under the conversation (no ledger entry: the turn's carries it). */
async function runAndLog(
  ctx: TurnContext,
  tool: string,
  op: Operation,
  connection: ScopedConnection,
  input: Record<string, unknown>,
): Promise<ToolOutcome> {
  const startedAt = seconds();
  let outcome: { ok: true; result: unknown; credits: number; cacheHit: boolean } | { ok: false; error: string };
  try {
    outcome = { ok: true, ...(await executeOperation(ctx.teamId, op, connection, input)) };
  } catch (e) {
    outcome = { ok: false, error: describeFailure(e) };
  }
  const credits = outcome.ok ? outcome.credits : 0;
  const privateTo = connection.isPrivate || ctx.carriesPrivate ? ctx.user.id : null;
  if (connection.isPrivate) ctx.carriesPrivate = true;
  const { logIds } = await recordOperations(ctx.teamId, [
    {
      operationId: op.id,
      operationVersion: op.operationVersion,
      status: outcome.ok ? "success" : "error",
      source: { type: "agent", id: ctx.conversation.id, name: ctx.conversation.title },
      user: ctx.user,
      startedAt,
      completedAt: seconds(),
      creditsUsed: credits,
      cacheHit: outcome.ok && outcome.cacheHit,
      input: { operation_id: op.id, connection_id: connection.id, input },
      output: outcome.ok ? outcome.result : { error: { message: outcome.error } },
      metadata: { tool_name: tool, connection_id: connection.id, turn_id: ctx.turnId },
      privateTo,
      connectionId: connection.id,
    },
  ]);
  const step: AgentStep = {
    operation_id: op.id,
    connection_id: connection.id,
    status: outcome.ok ? "success" : "error",
    log_id: logIds[0],
  };
  const output = outcome.ok
    ? outcome.result && typeof outcome.result === "object" && !Array.isArray(outcome.result)
      ? (outcome.result as Record<string, unknown>)
      : { result: outcome.result }
    : { error: outcome.error };
  return { output, credits, step, privateTo };
}
