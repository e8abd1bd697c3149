import "server-only";
import { z, ZodError } from "zod";
import { db, runStatement, type Prisma } from "@/lib/db/client";
import { placeholders } from "@/lib/jobs/claim";
import { ApiError, describeZodError } from "@/lib/errors/api-error";
import { callWithCredentials } from "@/lib/connections/call-with-credentials";
import { CREDENTIAL_SELECT, type CredentialRow } from "@/lib/connections/fresh-credentials";
import { prepared, read } from "@/lib/db/read";
import { ProviderRejection, ProviderUnavailable, UnsendableCredential } from "@/lib/platforms/kit/types";
import { cacheKey, cached, remember } from "@/lib/operations/response-cache";
import { closestOperationIds, findOperation } from "@/lib/operations/registry";
import { OperationInputError, type Operation, type OperationConnection } from "@/lib/platforms/kit/operation-types";
import { logger } from "@/lib/observability/logger";
import { LimitExceeded } from "@/lib/config/limits";
import { describeInputIssues } from "@/lib/operations/describe-input-issue";

// How every operation runs, whoever asks (an MCP tool, run_operation, an approved write, a
// workflow node): the checks that come before any provider call, then the call itself with the
// response cache and fresh credentials. Logging and charging are the caller's (one log and one
// ledger entry per run, written together by lib/logs/record-operations).

/** A connection a run may use, with the version its cached reads are keyed by. */
export type ScopedConnection = OperationConnection & { readsVersion: number };

/** Why a run was refused before it reached a provider; the message is for the person or model that asked. */
export class OperationRefusal extends Error {
  constructor(
    message: string,
    readonly code: string,
    /**
     * For a program calling the tools (an MCP client, the agent's model): which tool tells it more.
     * Kept apart from the message, which is what a person may be shown.
     */
    readonly hint?: string,
    /** What is wrong with the input, field by field, in a person's words. */
    readonly problems?: string[],
  ) {
    super(message);
  }
}

/** The catalogue entry for `id`, or a refusal naming the id it was given and the closest ones. */
export function operationOrRefuse(id: unknown): Operation {
  if (typeof id !== "string" || !id.trim())
    throw new OperationRefusal(
      "operation_id is required: the id of an operation from find_operations, e.g. sandbox.report.",
      "invalid_input",
    );
  const op = findOperation(id);
  if (op) return op;
  const shown = id.length > 100 ? `${id.slice(0, 100)}…` : id;
  throw new OperationRefusal(
    `There is no operation ${JSON.stringify(shown)}. Closest: ${closestOperationIds(id).join(", ")}. Call find_operations to search the catalogue.`,
    "unknown_operation",
  );
}

const inputSchemas = new Map<Operation, z.ZodObject>();
/** An operation's input schema; unknown fields are refused, so a misspelt field is never silently dropped. */
export function inputSchema(op: Operation): z.ZodObject {
  let schema = inputSchemas.get(op);
  if (!schema) inputSchemas.set(op, (schema = z.object(op.input).strict()));
  return schema;
}

const jsonSchemas = new Map<Operation, Record<string, unknown>>();
/**
 * The operation's input as JSON Schema (what get_operation_inputs, the Operations page and the docs
 * show), built once.
 */
export function inputJsonSchema(op: Operation): Record<string, unknown> {
  let json = jsonSchemas.get(op);
  if (!json) {
    json = z.toJSONSchema(inputSchema(op), { io: "input", unrepresentable: "any" });
    delete json.$schema;
    jsonSchemas.set(op, json);
  }
  return json;
}

/**
 * The connection and the parsed input of a run, or a refusal: the connection must be in the
 * caller's scope and of a type the operation runs on, and the input must pass its schema
 * (each failing field named, with why).
 */
export function checkRun(
  op: Operation,
  scope: readonly ScopedConnection[],
  connectionId: unknown,
  input: unknown,
): { connection: ScopedConnection; input: Record<string, unknown> } {
  if (typeof connectionId !== "string" || !connectionId) {
    throw new OperationRefusal(
      `connection_id is required: ${op.id} runs on ${op.types.join(", ")} connections. Call list_connections for the ones this session may use.`,
      "invalid_input",
    );
  }
  const connection = scope.find((c) => c.id === connectionId);
  if (!connection) {
    throw new OperationRefusal(
      `Connection ${connectionId.slice(0, 255)} is not available to this request: it is not among the connections this MCP server may use${scope.length ? "" : " (this request may use none)"}. Call list_connections for the ones it may use.`,
      "connection_out_of_scope",
    );
  }
  if (!op.types.includes(connection.type)) {
    throw new OperationRefusal(
      `${op.toolName ?? op.id} works on ${op.types.join(", ")} connections; ${connectionId} is a ${connection.type} connection.`,
      "wrong_connection_type",
    );
  }
  if (input !== undefined && (input === null || typeof input !== "object" || Array.isArray(input))) {
    throw new OperationRefusal(
      `input must be a JSON object of ${op.id}'s fields.`,
      "invalid_input",
      "get_operation_inputs describes them.",
    );
  }
  const parsed = inputSchema(op).safeParse(input ?? {});
  if (!parsed.success) {
    const problems = describeInputIssues(parsed.error, input ?? {});
    throw new OperationRefusal(
      `Invalid input for ${op.id}: ${problems.join("; ")}.`,
      "invalid_input",
      "get_operation_inputs describes the fields.",
      problems,
    );
  }
  return { connection, input: parsed.data };
}

export type RunResult = { result: unknown; credits: number; cacheHit: boolean };

/**
 * Runs a checked operation on its provider. A read is answered from the response cache while its
 * TTL lasts (keyed by the connection's readsVersion, so a write anywhere drops it); a write that
 * succeeds bumps that version, in the database every process and instance reads it from.
 */
export async function executeOperation(
  teamId: string,
  op: Operation,
  connection: ScopedConnection,
  input: Record<string, unknown>,
  read?: CredentialRow,
): Promise<RunResult> {
  const key =
    op.kind === "read" && op.cacheTtlSeconds > 0
      ? cacheKey(connection.id, connection.readsVersion, op.id, input)
      : null;
  const hit = key ? cached(key) : null;
  if (hit) return { result: hit.value, credits: 0, cacheHit: true };
  const result = await callWithCredentials(
    teamId,
    connection.id,
    (credentials) => op.run({ connection, credentials }, input),
    read,
  );
  if (key) remember(key, result, op.cacheTtlSeconds);
  if (op.kind === "write") await dropCachedReads(connection.id);
  return { result, credits: op.credits, cacheHit: false };
}

/** After a write: every cached read of the connection is stale, in every process. */
async function dropCachedReads(connectionId: string) {
  // One raw statement, on PostgreSQL without Prisma: its per-statement work cost more than this indexed write.
  await runStatement(placeholders(`UPDATE "Connection" SET "readsVersion" = "readsVersion" + 1 WHERE "id" = ?`), [
    connectionId,
  ]);
}

/** The message the model, the person and the log get for a failed run: the provider's reason, never internals. */
export function describeFailure(e: unknown): string {
  if (e instanceof OperationRefusal) return e.hint ? `${e.message} ${e.hint}` : e.message;
  if (e instanceof ProviderRejection) return `${e.provider} refused the call: ${e.reason}`;
  if (e instanceof ProviderUnavailable) return e.reason;
  if (e instanceof UnsendableCredential || e instanceof OperationInputError || e instanceof LimitExceeded)
    return e.message;
  if (e instanceof ApiError && typeof e.detail === "string") return e.detail;
  if (e instanceof ZodError) return `Invalid arguments: ${describeZodError(e)}`;
  logger.error("operation failed", { error: e });
  return "The operation failed inside Patchbay; the call was logged. Try again, and report it if it keeps happening.";
}

/** The columns of a connection row an operation runs with: `scopedConnection` maps them. */
export const SCOPED_CONNECTION_SELECT = {
  id: true,
  type: true,
  displayName: true,
  externalId: true,
  ownerUserId: true,
  readsVersion: true,
} as const satisfies Prisma.ConnectionSelect;

type ScopedConnectionRow = Prisma.ConnectionGetPayload<{ select: typeof SCOPED_CONNECTION_SELECT }>;

/** A connection row (`SCOPED_CONNECTION_SELECT`) as the operations see it. */
export const scopedConnection = (row: ScopedConnectionRow): ScopedConnection => ({
  id: row.id,
  type: row.type,
  name: row.displayName,
  externalId: row.externalId,
  isPrivate: row.ownerUserId !== null,
  readsVersion: row.readsVersion,
});

/** The connections of a team a server-side run (an approved write) may use: one, as it is now. */
export async function connectionForRun(
  teamId: string,
  connectionId: string,
): Promise<(ScopedConnection & { ownerUserId: string | null }) | null> {
  const row = await db.connection.findFirst({ where: { id: connectionId, teamId }, select: SCOPED_CONNECTION_SELECT });
  return row && { ...scopedConnection(row), ownerUserId: row.ownerUserId };
}

const findNodeConnection = prepared((a: { id: string; teamId: string }) =>
  read
    .selectFrom("Connection")
    .select([...(Object.keys({ ...SCOPED_CONNECTION_SELECT, ...CREDENTIAL_SELECT }) as ConnectionColumn[])])
    .where("id", "=", a.id)
    .where("teamId", "=", a.teamId),
);
type ConnectionColumn = keyof typeof SCOPED_CONNECTION_SELECT | keyof typeof CREDENTIAL_SELECT;

/** A workflow node's connection as the checks see it, and the stored credentials read with it. */
export type NodeConnection = {
  connection: ScopedConnection & { ownerUserId: string | null };
  read: CredentialRow;
};

/** A NodeConnection from a connection row of SCOPED_CONNECTION_SELECT and CREDENTIAL_SELECT. */
export function nodeConnectionOf(row: {
  id: string;
  type: string;
  displayName: string | null;
  externalId: string | null;
  ownerUserId: string | null;
  readsVersion: number;
  credentials: string;
  needsReauthAt: number | null;
}): NodeConnection {
  const needsReauthAt = row.needsReauthAt === null ? null : new Date(row.needsReauthAt);
  return {
    connection: { ...scopedConnection(row), ownerUserId: row.ownerUserId },
    read: { id: row.id, type: row.type, credentials: row.credentials, needsReauthAt } satisfies CredentialRow,
  };
}

/**
 * A workflow node's connection (connectionForRun's) and its stored credentials, in one read:
 * `read` goes to executeOperation, which then does not read the row again.
 */
export async function connectionAndCredentialsForRun(teamId: string, connectionId: string) {
  const [row] = await findNodeConnection({ id: connectionId, teamId });
  return row ? nodeConnectionOf(row) : null;
}
