import "server-only";
import { db, type Prisma } from "@/lib/db/client";
import { transaction, type Tx } from "@/lib/db/transaction";
import { badRequest, forbidden, notFound } from "@/lib/errors/api-error";
import { newId } from "@/lib/security/ids";
import { sha256Hex } from "@/lib/security/hashing";
import { checkBindableConnections } from "@/lib/connections/check-bindable-connections";
import { generateMcpToken } from "@/lib/mcp-tokens/mcp-token-format";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { WritePolicy } from "@/lib/schemas/write-policy";
import { cancelPendingApprovals } from "@/lib/approvals/cancel-approvals";
import { revokeGrantsWhere } from "@/lib/mcp-oauth/revoke-grant";
import { holdOwnerRole } from "@/lib/teams/hold-owner-role";

// MCP servers are a team resource: a name, an owner, shared or private, the saved connection
// permissions (the most any request may use, spec §4.13) and its bearer tokens.

type Actor = { teamId: string; userId: string; role: "owner" | "member" | null };

const ALLOWED_IS_FOR_OWNERS =
  "Only a team owner can let agents write without approval; choose “approval” to let them ask, or ask a team owner.";

/** A new server owned by `ownerUserId`, who is also the one binding its connections. */
export async function createMcpServer(input: {
  teamId: string;
  ownerUserId: string;
  name: string;
  isPrivate?: boolean;
  connectionIds?: string[];
  writePolicy?: WritePolicy;
}) {
  const name = input.name.trim();
  if (!name) throw badRequest("name: is empty");
  if (name.length > 100) throw badRequest("name: must be at most 100 characters");
  const member = await db.membership.findUnique({
    where: { teamId_userId: { teamId: input.teamId, userId: input.ownerUserId } },
    select: { role: true },
  });
  if (!member) throw notFound(`No member ${input.ownerUserId} in team ${input.teamId}.`);
  if (input.writePolicy === "allowed" && member.role !== "owner") throw forbidden(ALLOWED_IS_FOR_OWNERS);
  const connectionIds = await checkBindableConnections({
    teamId: input.teamId,
    actorUserId: input.ownerUserId,
    resourceOwnerUserId: input.ownerUserId,
    ids: input.connectionIds ?? [],
    resource: "MCP server",
  });
  return transaction(async (tx) => {
    // Again with the membership held: an owner demoted meanwhile does not leave an `allowed` behind.
    if (input.writePolicy === "allowed" && !(await holdOwnerRole(tx, input.teamId, input.ownerUserId)))
      throw forbidden(ALLOWED_IS_FOR_OWNERS);
    const server = await tx.mcpServer.create({
      data: {
        id: newId("mcp"),
        teamId: input.teamId,
        name,
        ownerUserId: input.ownerUserId,
        isPrivate: input.isPrivate ?? false,
        writePolicy: input.writePolicy ?? "off",
        writesAllowedByUserId: input.writePolicy === "allowed" ? input.ownerUserId : null,
        connections: { create: connectionIds.map((connectionId) => ({ connectionId })) },
      },
      select: { id: true, name: true, isPrivate: true, ownerUserId: true, createdAt: true },
    });
    await recordAuditEvent(tx, {
      teamId: input.teamId,
      action: "mcp_server.create",
      target: { type: "mcp_server", id: server.id },
      details: {
        name,
        private: server.isPrivate,
        connection_ids: connectionIds,
        write_policy: input.writePolicy ?? "off",
      },
    });
    return server;
  });
}

/** A server the actor may see (shared, or their own private one); others are not found. */
export async function findMcpServer(actor: Actor, id: string) {
  const server = await db.mcpServer.findFirst({
    where: { id, teamId: actor.teamId, OR: [{ isPrivate: false }, { ownerUserId: actor.userId }] },
    select: {
      id: true,
      name: true,
      isPrivate: true,
      ownerUserId: true,
      writePolicy: true,
      createdAt: true,
      connections: { select: { connectionId: true } },
    },
  });
  if (!server) throw notFound(`No MCP server ${id} in this team.`);
  return server;
}

/** Changing a server, its permissions or its tokens: its owner, or a team owner for a shared server. */
async function manageable(actor: Actor, id: string) {
  const server = await findMcpServer(actor, id);
  if (server.ownerUserId !== actor.userId && actor.role !== "owner")
    throw forbidden("Only the server's owner or a team owner can change this MCP server.");
  return server;
}

export async function updateMcpServer(
  actor: Actor,
  id: string,
  patch: { name?: string; isPrivate?: boolean; connectionIds?: string[]; writePolicy?: WritePolicy },
) {
  const server = await manageable(actor, id);
  if (patch.isPrivate && server.ownerUserId !== actor.userId)
    throw forbidden("Only the server's owner can make it private.");
  const policy =
    patch.writePolicy !== undefined && patch.writePolicy !== server.writePolicy ? patch.writePolicy : undefined;
  if (policy === "allowed" && actor.role !== "owner") throw forbidden(ALLOWED_IS_FOR_OWNERS);
  const name = patch.name?.trim();
  if (name !== undefined && !name) throw badRequest("name: is empty");
  if (name && name.length > 100) throw badRequest("name: must be at most 100 characters");
  const ids = patch.connectionIds ? await permissionsAfterUpdate(actor, server, patch.connectionIds) : null;
  const saved = new Set(server.connections.map((c) => c.connectionId));
  const adds = ids?.some((c) => !saved.has(c)) ?? false;
  await transaction(async (tx) => {
    if (policy === "allowed" && !(await holdOwnerRole(tx, actor.teamId, actor.userId)))
      throw forbidden(ALLOWED_IS_FOR_OWNERS);
    // A count, not update(): a server deleted meanwhile is a 404, not Prisma's record-not-found.
    const { count } = await tx.mcpServer.updateMany({
      where: { id, teamId: actor.teamId },
      data: {
        updatedAt: new Date(),
        ...(name ? { name } : {}),
        ...(patch.isPrivate !== undefined ? { isPrivate: patch.isPrivate } : {}),
        // `allowed` is the consent of the owner who set it, and lasts while they are an owner.
        ...(policy ? { writePolicy: policy, writesAllowedByUserId: policy === "allowed" ? actor.userId : null } : {}),
      },
    });
    if (!count) throw notFound(`No MCP server ${id} in this team.`);
    // Read after the update, which holds the server's row: a policy an owner sets concurrently
    // is either seen here or waits for this transaction.
    if (adds && actor.role !== "owner") await checkMayExtendAllowed(tx, id);
    if (ids) {
      await tx.mcpServerConnection.deleteMany({ where: { mcpServerId: id } });
      if (ids.length)
        await tx.mcpServerConnection.createMany({
          data: ids.map((connectionId) => ({ mcpServerId: id, connectionId })),
        });
      await cancelPendingApprovals(
        tx,
        { teamId: actor.teamId, mcpServerId: id, connectionId: { notIn: ids } },
        `Cancelled because its connection was taken off the MCP server “${name || server.name}”'s permissions; nothing was written.`,
      );
    }
    if (policy === "off") {
      await cancelPendingApprovals(
        tx,
        { teamId: actor.teamId, mcpServerId: id },
        `Cancelled because writes were turned off on the MCP server “${name || server.name}”; nothing was written.`,
      );
    }
    await recordAuditEvent(tx, {
      teamId: actor.teamId,
      action: "mcp_server.update",
      target: { type: "mcp_server", id },
      details: {
        name: name || server.name,
        renamed_from: name && name !== server.name ? server.name : undefined,
        private: patch.isPrivate,
        connection_ids: ids ?? undefined,
      },
    });
    if (policy) {
      await recordAuditEvent(tx, {
        teamId: actor.teamId,
        action: "mcp_server.write_policy_change",
        target: { type: "mcp_server", id },
        details: { name: name || server.name, from: server.writePolicy, to: policy },
      });
    }
  });
  return findMcpServer(actor, id);
}

/**
 * `allowed` is a team owner's consent to writes without approval, given for the connections the
 * server held then: a member who owns the server may not extend it to more connections. Taking
 * connections off stays open to whoever may edit the server.
 */
async function checkMayExtendAllowed(tx: Tx, id: string) {
  const row = await tx.mcpServer.findUnique({ where: { id }, select: { writePolicy: true } });
  if (row?.writePolicy === "allowed") {
    throw forbidden(
      'This MCP server\'s writes run without approval (a team owner allowed that for the connections it had), so only a team owner can add connections to it. Ask a team owner to add them, or set its writes to “approval” first (in the same request, with write_policy: "approval").',
    );
  }
}

/**
 * Puts the team's `allowed` servers matching `where` back to `approval`, each with an audit event
 * saying Patchbay did it and why. Pending requests stay pending (they still need an approval).
 * Returns the servers changed.
 */
async function downgradeAllowedServers(
  tx: Tx,
  teamId: string,
  where: Prisma.McpServerWhereInput,
  reason: string,
  details: Record<string, string> = {},
) {
  const servers = await tx.mcpServer.findMany({
    where: { ...where, teamId, writePolicy: "allowed" },
    select: { id: true, name: true },
    orderBy: { id: "asc" },
  });
  const changed: string[] = [];
  for (const server of servers) {
    const { count } = await tx.mcpServer.updateMany({
      where: { id: server.id, writePolicy: "allowed" },
      data: { writePolicy: "approval", writesAllowedByUserId: null, updatedAt: new Date() },
    });
    if (!count) continue;
    changed.push(server.id);
    await recordAuditEvent(tx, {
      teamId,
      action: "mcp_server.write_policy_change",
      target: { type: "mcp_server", id: server.id },
      actor: { kind: "system" },
      details: { name: server.name, from: "allowed", to: "approval", changed_by: "Patchbay", reason, ...details },
    });
  }
  return changed;
}

/**
 * Stops writes without approval on every server of the team whose permissions hold
 * `connectionId`: for when what a connection reaches may have changed without a team owner (a
 * member posting new credentials for it), so an owner's earlier consent is not carried over to
 * another account.
 */
export async function downgradeAllowedServersUsing(tx: Tx, teamId: string, connectionId: string, reason: string) {
  return downgradeAllowedServers(tx, teamId, { connections: { some: { connectionId } } }, reason, {
    connection_id: connectionId,
  });
}

/**
 * Stops writes without approval on the servers `userId` set to `allowed`, when they stop being a
 * team owner (demoted, removed, or left): `allowed` is an owner's consent, and it does not
 * outlive their being one. In the caller's transaction (the role change or the removal).
 */
export async function downgradeServersAllowedBy(tx: Tx, teamId: string, userId: string, reason: string) {
  return downgradeAllowedServers(tx, teamId, { writesAllowedByUserId: userId }, reason, { allowed_by: userId });
}

/**
 * The saved permissions a PATCH leaves: exactly the ids given. Those already on the server stay
 * as they are (a team owner editing a member's shared server sends back the member's private
 * connections it holds, nameless, and may drop them); every id new to the server must be one the
 * editor may bind (lib/connections/check-bindable-connections.ts).
 */
async function permissionsAfterUpdate(
  actor: Actor,
  server: Awaited<ReturnType<typeof findMcpServer>>,
  given: string[],
) {
  const saved = new Set(server.connections.map((c) => c.connectionId));
  const unique = [...new Set(given)];
  await checkBindableConnections({
    teamId: actor.teamId,
    actorUserId: actor.userId,
    resourceOwnerUserId: server.ownerUserId,
    ids: unique.filter((id) => !saved.has(id)),
    resource: "MCP server",
  });
  return unique;
}

export async function deleteMcpServer(actor: Actor, id: string) {
  const server = await manageable(actor, id);
  await transaction(async (tx) => {
    // Its connected apps end with it, each on the record (the delete would take their rows silently).
    await revokeGrantsWhere(
      tx,
      { teamId: actor.teamId, mcpServerId: id },
      `its MCP server “${server.name}” was deleted`,
    );
    // deleteMany: a concurrent delete of the same server is a 404, not an unhandled "record not found".
    const { count } = await tx.mcpServer.deleteMany({ where: { id, teamId: actor.teamId } });
    if (!count) throw notFound(`No MCP server ${id} in this team.`);
    await cancelPendingApprovals(
      tx,
      { teamId: actor.teamId, mcpServerId: id },
      `Cancelled because the MCP server “${server.name}” that filed it was deleted; nothing was written.`,
    );
    await recordAuditEvent(tx, {
      teamId: actor.teamId,
      action: "mcp_server.delete",
      target: { type: "mcp_server", id },
      details: { name: server.name },
    });
  });
  return { id, deleted: true as const };
}

/** A new bearer token for the server: returned once, stored only as its SHA-256. */
export async function createMcpToken(actor: Actor, serverId: string, name?: string) {
  const server = await manageable(actor, serverId);
  const { token, prefix } = generateMcpToken();
  const row = await transaction(async (tx) => {
    const created = await tx.mcpToken.create({
      data: {
        id: newId("mcpt"),
        mcpServerId: serverId,
        hash: sha256Hex(token),
        prefix,
        name: name?.trim() || null,
        createdByUserId: actor.userId,
      },
      select: { id: true, prefix: true, name: true, createdAt: true },
    });
    await recordAuditEvent(tx, {
      teamId: actor.teamId,
      action: "mcp_token.create",
      target: { type: "mcp_token", id: created.id },
      details: { mcp_server_id: serverId, mcp_server: server.name, name: created.name, prefix },
    });
    return created;
  });
  return { ...row, token };
}

export async function listMcpTokens(actor: Actor, serverId: string) {
  await findMcpServer(actor, serverId);
  return db.mcpToken.findMany({
    where: { mcpServerId: serverId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: {
      id: true,
      prefix: true,
      name: true,
      createdByUserId: true,
      createdAt: true,
      lastUsedAt: true,
      revokedAt: true,
    },
  });
}

export async function revokeMcpToken(actor: Actor, serverId: string, tokenId: string) {
  const server = await manageable(actor, serverId);
  const count = await transaction(async (tx) => {
    const revoked = await tx.mcpToken.updateMany({
      where: { id: tokenId, mcpServerId: serverId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    if (revoked.count) {
      const t = await tx.mcpToken.findUniqueOrThrow({ where: { id: tokenId }, select: { prefix: true, name: true } });
      await cancelPendingApprovals(
        tx,
        { teamId: actor.teamId, mcpTokenId: tokenId },
        `Cancelled because the MCP token that filed it (${t.name ?? t.prefix}) was revoked; nothing was written.`,
      );
      await recordAuditEvent(tx, {
        teamId: actor.teamId,
        action: "mcp_token.revoke",
        target: { type: "mcp_token", id: tokenId },
        details: { mcp_server_id: serverId, mcp_server: server.name, name: t.name, prefix: t.prefix },
      });
    }
    return revoked.count;
  });
  if (!count) {
    const exists = await db.mcpToken.findFirst({ where: { id: tokenId, mcpServerId: serverId }, select: { id: true } });
    if (!exists) throw notFound(`No token ${tokenId} on this MCP server.`);
  }
  return { id: tokenId, revoked: true as const };
}
