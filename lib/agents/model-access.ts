import "server-only";
import { db } from "@/lib/db/client";
import { badRequest, notFound } from "@/lib/errors/api-error";
import { visibleConnections } from "@/lib/connections/visible-connections";
import { freshCredentials, markNeedsReauth } from "@/lib/connections/fresh-credentials";
import { findConnectionType } from "@/lib/platforms/registry";
import { ProviderRejection, type ConnectionTypeDefinition, type ModelDefinition } from "@/lib/platforms/kit/types";
import { SCOPED_CONNECTION_SELECT, scopedConnection, type ScopedConnection } from "@/lib/operations/run-operation";
import { describeModelFailure, ModelFailure } from "@/lib/agents/model-client";

// What every caller of a model connection checks and reads (a conversation's turns, the workflow
// Copilot): the connection is one the member sees and a model; its key, fresh; the connections its
// tools may use; and a failure as the member's sentence, a refused key marking the connection.

type ModelType = ConnectionTypeDefinition & { model: ModelDefinition };
export type ModelAccess = { connectionId: string; type: ModelType; apiKey: string };

/** A model connection the caller picked: 404 when they cannot see it, 400 when it is not a model. */
export async function findModelConnection(caller: { team: { id: string }; user: { id: string } }, id: string) {
  const row = await db.connection.findFirst({
    where: { ...visibleConnections(caller.team.id, caller.user.id), id },
    select: { id: true, type: true },
  });
  if (!row) throw notFound(`No connection ${id} that you can see in this team.`);
  const model = findConnectionType(row.type)?.model;
  if (!model)
    throw badRequest(
      `model_connection_id: ${row.id} is a ${row.type} connection, not a model; use an openai, anthropic or sandbox_model connection.`,
    );
  return { id: row.id, model };
}

/** The model connection's type and key for `userId` now, or the sentence saying why it cannot be used. */
export async function modelAccess(teamId: string, connectionId: string, userId: string): Promise<ModelAccess> {
  const row = await db.connection.findFirst({
    where: { id: connectionId, teamId },
    select: { id: true, type: true, ownerUserId: true },
  });
  if (!row) throw new ModelFailure(`The model connection ${connectionId} was deleted.`, "other");
  if (row.ownerUserId !== null && row.ownerUserId !== userId)
    throw new ModelFailure("The model connection is another member's private connection.", "other");
  const type = findConnectionType(row.type);
  if (!type?.model) throw new ModelFailure(`${row.type} connections are not models on this server.`, "other");
  const credentials = await freshCredentials(teamId, row.id);
  const key =
    type.model.keyField === null
      ? "sandbox"
      : credentials.kind === "manual"
        ? credentials.credentials[type.model.keyField]
        : credentials.tokens.accessToken;
  return { connectionId: row.id, type: type as ModelType, apiKey: key ?? "" };
}

/**
 * A failed model call as the member's sentence (null: a fault inside Patchbay, not the model's);
 * a key the provider refused marks the model connection as needing attention.
 */
export async function modelFailureOf(
  e: unknown,
  access: ModelAccess | null,
  model: string,
  signal: AbortSignal,
): Promise<ModelFailure | null> {
  const failure =
    e instanceof ModelFailure
      ? e
      : access
        ? describeModelFailure(e, { type: access.type, model, signal, apiKey: access.apiKey })
        : null;
  if (failure?.kind === "auth" && access)
    await markNeedsReauth(access.connectionId, new ProviderRejection(access.type.name, failure.message)).catch(
      () => undefined,
    );
  return failure;
}

/** The connections among `ids` (all of them when left out) that `userId` sees now, oldest first, as tools use them. */
export async function connectionScope(teamId: string, userId: string, ids?: string[]): Promise<ScopedConnection[]> {
  if (ids && !ids.length) return [];
  const rows = await db.connection.findMany({
    where: { ...visibleConnections(teamId, userId), ...(ids && { id: { in: ids } }) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: SCOPED_CONNECTION_SELECT,
  });
  return rows.map(scopedConnection);
}
