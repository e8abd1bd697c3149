import "server-only";
import { badRequest } from "@/lib/errors/api-error";
import type { Insertable } from "kysely";
import { transaction, type Tx } from "@/lib/db/transaction";
import { deferredInTx, write } from "@/lib/db/write";
import type { ReadDb } from "@/lib/db/read-types";
import { newId } from "@/lib/security/ids";
import { encryptJson } from "@/lib/security/encryption";
import { connectionPublicSelect, connectionToJson } from "@/lib/connections/connection-to-json";
import { emitWebhookEvent, webhookSubscribers } from "@/lib/webhooks/emit";
import { dbEngine, runPipelined, runStatement } from "@/lib/db/client";
import { afterCommit } from "@/lib/db/commit-signals";
import { captureDeferred, combined, isUniqueViolation } from "@/lib/db/tx-connection";
import { prepared, read } from "@/lib/db/read";
import type { ConnectionJson } from "@/lib/schemas/connections";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { Actor } from "@/lib/observability/request-context";
import { deactivateWorkflows, writeNodes } from "@/lib/workflows/workflow-consent";
import { downgradeAllowedServersUsing } from "@/lib/mcp-servers/mcp-servers";
import { parseNodes } from "@/lib/workflows/workflow-json";
import { nextCheckAt, tokenExpiry } from "@/lib/connections/health";

export type ConnectionToSave = {
  teamId: string;
  type: string;
  /** The type's display name, for error texts. */
  typeName: string;
  displayName: string;
  /** Private owner; `undefined` keeps the visibility of a connection being replaced (shared for a new one). */
  ownerUserId: string | null | undefined;
  /** Who is saving: a connection private to someone else is never replaced by them. */
  actingUserId: string | null;
  /** The credentials (tokens, keys) to store: encrypted here, bound to the row they land in. */
  credentials: unknown;
  /** Spec §4.2: the connection a save of the same account replaces; null always creates. */
  rotationKey: string | null;
  /** The provider account its identity call named (null: none): duplicates share it. */
  accountId?: string | null;
  /** Set on a new connection, and on the replaced one when given (auth links). */
  externalId?: string | null;
  /** How it came: posted credentials, or an auth link's OAuth flow (whose holder is the actor). */
  via: { kind: "credentials" } | { kind: "auth_link"; authLinkId: string; actor: Actor };
};

// Held and sent with the transaction's next statement (lib/db/write.ts): with the webhook
// subscribers' read on PostgreSQL. Its row is known without reading it back; a broken unique key
// (a racing save of the same account) is reported there, inside the transaction, and retried.
const insertConnection = deferredInTx((c: Insertable<ReadDb["Connection"]>) =>
  write.insertInto("Connection").values(c),
);

/**
 * Inserts a connection, or replaces in place the one its rotation key points at, in one
 * transaction that `within` can join (an auth link claims itself there). Two racing saves of
 * the same account: one insert wins the unique index, the other retries as the replacement,
 * so exactly one connection results. The webhook event (connection.created or .updated) is
 * written in the same transaction.
 */
export async function saveConnection<T = void>(
  c: ConnectionToSave,
  within?: (tx: Tx, connection: ConnectionJson) => Promise<T>,
) {
  for (let attempt = 0; ; attempt++) {
    try {
      if (!within) {
        const saved = await insertedAtOnce(c);
        if (saved) return { ...saved, extra: undefined as T };
      }
      return await transaction(async (tx) => {
        const existing =
          c.rotationKey === null
            ? null
            : await tx.connection.findUnique({
                where: { teamId_type_rotationKey: { teamId: c.teamId, type: c.type, rotationKey: c.rotationKey } },
                select: { id: true, ownerUserId: true, health: true },
              });
        if (existing && existing.ownerUserId !== null && existing.ownerUserId !== c.actingUserId) {
          throw badRequest(
            `This ${c.typeName} account is already connected privately by another member of the team; ask them to replace it, or connect a different account.`,
          );
        }
        if (existing) await keepConsentOfOthers(tx, c, existing);
        let row: ConnectionRow;
        if (existing) {
          const fresh = freshHealth(c);
          row = await tx.connection.update({
            where: { id: existing.id },
            data: {
              credentials: encryptJson(c.credentials, `connection:${existing.id}`),
              displayName: c.displayName,
              needsReauthAt: null,
              refreshingUntil: null,
              ...fresh,
              updatedAt: new Date(),
              ...(c.ownerUserId !== undefined && { ownerUserId: c.ownerUserId }),
              ...(c.externalId != null && { externalId: c.externalId }),
            },
            select: connectionPublicSelect,
          });
        } else row = await insertNew(tx, c);
        const connection = connectionToJson(row);
        const extra = within ? await within(tx, connection) : (undefined as T);
        // The events before the audit record: both are held and sent with the commit in one
        // statement on PostgreSQL (lib/db/write.ts), which a read between them would split.
        await emitWebhookEvent(tx, c.teamId, existing ? "connection.updated" : "connection.created", { connection });
        if (existing && existing.health !== "healthy")
          await emitWebhookEvent(tx, c.teamId, "connection.health_changed", {
            connection,
            health: "healthy",
            previous: existing.health as "needs_reauth" | "unreachable",
            error: null,
          });
        await recordSave(tx, c, row, existing !== null);
        return { row, replaced: existing !== null, extra };
      });
    } catch (e) {
      // A racing save of the same account took the rotation key: this one replaces it.
      if (isUniqueViolation(e) && attempt < 3) continue;
      throw e;
    }
  }
}

type ConnectionRow = {
  id: string;
  type: string;
  displayName: string | null;
  externalId: string | null;
  ownerUserId: string | null;
  createdAt: Date;
  updatedAt: Date;
};

/** Freshly verified: healthy, checked now, next checked by the scheduler after an interval. */
const freshHealth = (c: ConnectionToSave) => ({
  accountId: c.accountId ?? null,
  tokenExpiresAt: tokenExpiry(c.credentials),
  health: "healthy",
  healthError: null,
  checkedAt: BigInt(Date.now()),
  nextCheckAt: nextCheckAt(),
});

/** A new connection's row, written on `tx` (deferred: held for its next statement), as the API shows it. */
async function insertNew(tx: Tx, c: ConnectionToSave): Promise<ConnectionRow> {
  const id = newId("conn");
  const now = new Date();
  const fresh = freshHealth(c);
  await insertConnection(tx, {
    id,
    teamId: c.teamId,
    type: c.type,
    displayName: c.displayName,
    ownerUserId: c.ownerUserId ?? null,
    credentials: encryptJson(c.credentials, `connection:${id}`),
    rotationKey: c.rotationKey,
    externalId: c.externalId ?? null,
    ...fresh,
    tokenExpiresAt: fresh.tokenExpiresAt === null ? null : Number(fresh.tokenExpiresAt),
    checkedAt: Number(fresh.checkedAt),
    nextCheckAt: Number(fresh.nextCheckAt),
    readsVersion: 0,
    createdAt: now,
    updatedAt: now,
  });
  return {
    id,
    type: c.type,
    displayName: c.displayName,
    externalId: c.externalId ?? null,
    ownerUserId: c.ownerUserId ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

const recordSave = (tx: Tx, c: ConnectionToSave, row: ConnectionRow, replaced: boolean) =>
  recordAuditEvent(tx, {
    teamId: c.teamId,
    action: replaced ? "connection.replace" : "connection.create",
    target: { type: "connection", id: row.id },
    details: {
      type: c.type,
      name: c.displayName,
      private: row.ownerUserId !== null,
      via: c.via.kind,
      auth_link_id: c.via.kind === "auth_link" ? c.via.authLinkId : undefined,
    },
    actor: c.via.kind === "auth_link" ? c.via.actor : undefined,
  });

const connectionWithKey = prepared((a: { teamId: string; type: string; rotationKey: string }) =>
  read
    .selectFrom("Connection")
    .select("id")
    .where("teamId", "=", a.teamId)
    .where("type", "=", a.type)
    .where("rotationKey", "=", a.rotationKey),
);

/**
 * A new connection (nothing holds its rotation key) whose save writes only: its row, its
 * connection.created event with the deliveries, and its audit event, sent at once with no
 * interactive transaction. On PostgreSQL one statement, atomic by itself; on SQLite one batch
 * (BEGIN … COMMIT). The subscribers are read just before (`webhookSubscribers`). One round trip
 * for the write where the transaction took three, and none of Prisma's work: a burst of changes
 * (bench:webhooks) was bound by them. Null when it cannot be (the key is taken: a replacement;
 * the audit needs a read): nothing was written, and the transaction does it. A racing save that
 * takes the key first breaks the unique index here (P2002 / 23505): the caller retries.
 */
async function insertedAtOnce(c: ConnectionToSave): Promise<{ row: ConnectionRow; replaced: false } | null> {
  if (c.rotationKey !== null) {
    const taken = await connectionWithKey({ teamId: c.teamId, type: c.type, rotationKey: c.rotationKey });
    if (taken.length) return null;
  }
  const subscribers = await webhookSubscribers(c.teamId, "connection.created");
  let row: ConnectionRow | undefined;
  const writes = await captureDeferred(async (capture) => {
    const tx = capture as Tx;
    row = await insertNew(tx, c);
    await emitWebhookEvent(tx, c.teamId, "connection.created", { connection: connectionToJson(row) }, { subscribers });
    await recordSave(tx, c, row, false);
  });
  if (!writes || !row) return null;
  if (dbEngine() === "postgresql") {
    const one = combined(writes);
    await runStatement(one.sql, one.values);
  } else await runPipelined([{ sql: "BEGIN", values: [] }, ...writes, { sql: "COMMIT", values: [] }]);
  // Its deliveries are due now: wake the dispatcher.
  afterCommit();
  return { row, replaced: false };
}

/**
 * A connection that other people's workflows or MCP servers use carries their consent: making it
 * private would take it from them, so that is refused while they use it; and new credentials posted
 * by a member (the same name can hold another account's key) must not silently redirect the writes
 * an owner allowed on it, so those workflows stop, with the reason, until an owner activates them
 * again, and MCP servers that write to it without approval go back to approval. An owner's re-post,
 * and a re-authorization through an auth link (the provider proves the same account), keep them
 * running.
 */
async function keepConsentOfOthers(tx: Tx, c: ConnectionToSave, existing: { id: string; ownerUserId: string | null }) {
  const becomesPrivate = existing.ownerUserId === null && c.ownerUserId != null;
  if (becomesPrivate) {
    const workflows = await tx.workflow.findMany({
      where: {
        teamId: c.teamId,
        connections: { some: { connectionId: existing.id } },
        OR: [{ createdByUserId: null }, { createdByUserId: { not: c.actingUserId ?? "" } }],
      },
      select: { name: true },
      orderBy: { id: "asc" },
    });
    const servers = await tx.mcpServer.findMany({
      where: {
        teamId: c.teamId,
        connections: { some: { connectionId: existing.id } },
        OR: [{ ownerUserId: null }, { ownerUserId: { not: c.actingUserId ?? "" } }],
      },
      select: { name: true },
    });
    if (workflows.length || servers.length) {
      const uses = [
        workflows.length &&
          `${workflows.length} workflow${workflows.length > 1 ? "s" : ""} (${workflows.map((w) => w.name).join(", ")})`,
        servers.length &&
          `${servers.length} MCP server${servers.length > 1 ? "s" : ""} (${servers.map((m) => m.name).join(", ")})`,
      ].filter(Boolean);
      throw badRequest(
        `This ${c.typeName} connection is shared, and other members' ${uses.join(" and ")} use it; it cannot become private while they do. Remove it from them first, or keep it shared (is_private: false).`,
      );
    }
  }
  if (c.via.kind !== "credentials" || !c.actingUserId) return;
  const role = (
    await tx.membership.findUnique({
      where: { teamId_userId: { teamId: c.teamId, userId: c.actingUserId } },
      select: { role: true },
    })
  )?.role;
  if (role === "owner") return;
  // Every active workflow that writes to it on another person's consent: an owner activated it,
  // whoever wrote it (the member's own workflow included).
  const activeOnIt = await tx.workflow.findMany({
    where: {
      teamId: c.teamId,
      active: true,
      connections: { some: { connectionId: existing.id } },
      OR: [{ activatedByUserId: null }, { activatedByUserId: { not: c.actingUserId } }],
    },
    select: { id: true, name: true, nodes: true },
    orderBy: { id: "asc" },
  });
  const writing = activeOnIt.filter((w) =>
    writeNodes(parseNodes(w.nodes)).some((n) => n.connection_id === existing.id),
  );
  const who =
    (await tx.user.findUnique({ where: { id: c.actingUserId }, select: { email: true } }))?.email ?? "a member";
  await deactivateWorkflows(
    tx,
    c.teamId,
    writing,
    `Deactivated because ${who} replaced the credentials of connection ${c.displayName} (${c.type}) that it writes to; check it is the account you meant, then an owner activates it again.`,
  );
  // The same for MCP servers whose writes an owner allowed without approval: back to approval.
  await downgradeAllowedServersUsing(
    tx,
    c.teamId,
    existing.id,
    `${who} posted new credentials for ${c.displayName} (${c.type}); a person approves its writes again until an owner allows them`,
  );
}
