import "server-only";
import { read } from "@/lib/db/read";
import type { LogJson } from "@/lib/schemas/logs";
import { agentSourceName } from "@/lib/text/conversation-name";

/**
 * Logs with their parent's current name joined in (spec §2.5 LogSource.name: the workflow's or
 * MCP server's name now, else the name recorded at log time), in one query with the page.
 */
export function selectLogs() {
  return read
    .selectFrom("OperationLog as l")
    .leftJoin("Workflow as w", (j) =>
      j.onRef("w.id", "=", "l.sourceId").onRef("w.teamId", "=", "l.teamId").on("l.sourceType", "=", "workflow"),
    )
    .leftJoin("McpServer as m", (j) =>
      j.onRef("m.id", "=", "l.sourceId").onRef("m.teamId", "=", "l.teamId").on("l.sourceType", "=", "mcp"),
    )
    .leftJoin("AgentConversation as c", (j) =>
      j.onRef("c.id", "=", "l.sourceId").onRef("c.teamId", "=", "l.teamId").on("l.sourceType", "=", "agent"),
    )
    .select((eb) => [
      "l.id",
      "l.operationId",
      "l.operationVersion",
      "l.status",
      "l.sourceType",
      "l.sourceId",
      "l.sourceRunId",
      eb.fn.coalesce("w.name", "m.name", "l.sourceName").as("sourceName"),
      "l.userId",
      "l.userEmail",
      "l.startedAt",
      "l.completedAt",
      "l.creditsUsed",
      "l.cacheHit",
      "l.input",
      "l.output",
      "l.metadata",
      "l.privateToUserId",
      "c.userId as conversationUserId",
      "c.shared as conversationShared",
    ]);
}

type LogRow = Awaited<ReturnType<ReturnType<typeof selectLogs>["executeTakeFirstOrThrow"]>>;

type Fields = Omit<LogJson, "input" | "output" | "metadata">;

/** What another member reads in place of a private connection's log output. */
const PRIVATE_LOG_OUTPUT = JSON.stringify({
  redacted: "This ran on a teammate's private connection: only its owner reads what it sent and received.",
});

/**
 * A log as the JSON text of spec §2.5. `input`, `output` and `metadata` are stored as the JSON
 * text `recordOperations` wrote with JSON.stringify, so they are spliced in as they are: parsing
 * them only to serialise them again would be the costliest part of a page. A log of another
 * member's private connection shows that it ran, not what it read or wrote (`viewerId`: the
 * key's or the session's user); nor does it read the title of another member's unshared agent
 * conversation (its first message).
 */
export function logJsonText(row: LogRow, viewerId: string): string {
  const fields: Fields = {
    id: row.id,
    operation_id: row.operationId,
    operation_version: row.operationVersion,
    status: row.status as LogJson["status"],
    source: {
      type: row.sourceType as LogJson["source"]["type"],
      id: row.sourceId,
      run_id: row.sourceRunId,
      name: row.sourceType === "agent" ? agentSourceName(row.sourceName, row, viewerId) : row.sourceName,
    },
    user: { id: row.userId, email: row.userEmail },
    started_at: row.startedAt,
    completed_at: row.completedAt,
    credits_used: row.creditsUsed,
    cache_hit: Boolean(row.cacheHit),
  };
  const head = JSON.stringify(fields);
  const hidden = row.privateToUserId !== null && row.privateToUserId !== viewerId;
  const input = hidden ? "null" : (row.input ?? "null");
  const output = hidden ? PRIVATE_LOG_OUTPUT : (row.output ?? "null");
  return `${head.slice(0, -1)},"input":${input},"output":${output},"metadata":${row.metadata}}`;
}
