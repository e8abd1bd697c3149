import "server-only";
import type { Approval } from "@/lib/db/client";
import type { Tx } from "@/lib/db/transaction";

/**
 * Why a request may no longer run, judged now (an approval is decided under the permissions of
 * its moment, not of its filing): its MCP server must still exist with writes `approval` or
 * `allowed`, the token that filed it must not be revoked, its connection must still exist, be in
 * the server's saved permissions and be one the requester may use (shared, or private to the
 * requester on a server the requester owns), and the requester must still be in the team.
 * Read inside the transaction that claims the request. Null when it may run.
 */
export async function whyNoLongerRunnable(tx: Tx, row: Approval): Promise<string | null> {
  if (row.conversationId) return whyAgentRequestNoLongerRunnable(tx, row, row.conversationId);
  if (row.workflowRunId) return whyWorkflowRequestNoLongerRunnable(tx, row, row.workflowRunId);
  const serverName = `“${row.mcpServerName ?? row.mcpServerId ?? "unknown"}”`;
  const server = row.mcpServerId
    ? await tx.mcpServer.findFirst({
        where: { id: row.mcpServerId, teamId: row.teamId },
        select: { writePolicy: true, ownerUserId: true },
      })
    : null;
  if (!server) return `the MCP server ${serverName} that filed it was deleted`;
  if (server.writePolicy !== "approval" && server.writePolicy !== "allowed")
    return `the MCP server ${serverName} no longer allows writes (its write policy is ${server.writePolicy})`;
  if (row.mcpTokenId) {
    const token = await tx.mcpToken.findFirst({
      where: { id: row.mcpTokenId, mcpServerId: row.mcpServerId! },
      select: { revokedAt: true },
    });
    if (!token || token.revokedAt) return `the MCP token that filed it was revoked`;
  }
  if (row.oauthGrantId) {
    const grant = await tx.oAuthGrant.findFirst({
      where: { id: row.oauthGrantId, mcpServerId: row.mcpServerId! },
      select: { revokedAt: true },
    });
    if (!grant || grant.revokedAt) return `the app that filed it lost its access`;
  }
  const connectionName = `${row.connectionName ?? row.connectionId} (${row.connectionType})`;
  const connection = await tx.connection.findFirst({
    where: { id: row.connectionId, teamId: row.teamId },
    select: { ownerUserId: true },
  });
  if (!connection) return `its connection ${connectionName} was deleted`;
  const bound = await tx.mcpServerConnection.findFirst({
    where: { mcpServerId: row.mcpServerId!, connectionId: row.connectionId },
    select: { connectionId: true },
  });
  if (!bound) return `its connection ${connectionName} is no longer among the MCP server ${serverName}'s permissions`;
  if (row.requestedById) {
    const member = await tx.membership.findUnique({
      where: { teamId_userId: { teamId: row.teamId, userId: row.requestedById } },
      select: { role: true },
    });
    if (!member)
      return `the member who asked for it (${row.requestedByEmail ?? row.requestedById}) is no longer in the team`;
  }
  if (
    connection.ownerUserId !== null &&
    (connection.ownerUserId !== row.requestedById || server.ownerUserId !== connection.ownerUserId)
  ) {
    return `its connection ${connectionName} is private, and no longer reachable by the member who asked through this server`;
  }
  return null;
}

/**
 * The same for a request an agent conversation filed (CONTRACT §11): the conversation must still
 * exist with the connection among its picks, the connection must still exist and be one the
 * requester sees (shared, or private to them), and the requester must still be in the team.
 */
async function whyAgentRequestNoLongerRunnable(tx: Tx, row: Approval, conversationId: string) {
  const conversation = await tx.agentConversation.findFirst({
    where: { id: conversationId, teamId: row.teamId },
    select: { connectionIds: true, title: true },
  });
  if (!conversation) return "the agent conversation that filed it was deleted";
  const connectionName = `${row.connectionName ?? row.connectionId} (${row.connectionType})`;
  if (!(JSON.parse(conversation.connectionIds) as string[]).includes(row.connectionId))
    return `its connection ${connectionName} is no longer among the conversation's connections`;
  const connection = await tx.connection.findFirst({
    where: { id: row.connectionId, teamId: row.teamId },
    select: { ownerUserId: true },
  });
  if (!connection) return `its connection ${connectionName} was deleted`;
  const member = row.requestedById
    ? await tx.membership.findUnique({
        where: { teamId_userId: { teamId: row.teamId, userId: row.requestedById } },
        select: { role: true },
      })
    : null;
  if (!member) return `the member who asked for it (${row.requestedByEmail ?? "unknown"}) is no longer in the team`;
  if (connection.ownerUserId !== null && connection.ownerUserId !== row.requestedById)
    return `its connection ${connectionName} is private to another member`;
  return null;
}

/**
 * A workflow run's approval step (CONTRACT §13): its run must still wait for it (the workflow was
 * not deleted, nor stopped, which cancels its requests at once) and its connection must exist.
 */
async function whyWorkflowRequestNoLongerRunnable(tx: Tx, row: Approval, runId: string): Promise<string | null> {
  const run = await tx.workflowRun.findFirst({
    where: { id: runId, teamId: row.teamId },
    select: { status: true, workflow: { select: { name: true } } },
  });
  if (!run) return "the workflow whose run filed it was deleted";
  if (run.status !== "waiting_approval") return `its workflow run no longer waits for it (it is ${run.status})`;
  const connection = await tx.connection.findFirst({
    where: { id: row.connectionId, teamId: row.teamId },
    select: { id: true },
  });
  if (!connection)
    return `its connection ${row.connectionName ?? row.connectionId} (${row.connectionType}) was deleted`;
  return null;
}
