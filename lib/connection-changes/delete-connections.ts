import "server-only";
import { transaction } from "@/lib/db/transaction";
import { deleteConnectionIn } from "@/lib/connection-changes/delete-connection";
import type { BulkDeleteResultJson } from "@/lib/schemas/connection-page";

/**
 * The Connections list's bulk delete: every connection as DELETE /v1/connections/{id} deletes
 * one (its workflows deactivated, its approvals cancelled, one audit event and one
 * connection.deleted each), all in one transaction, so a connection the user cannot see (404)
 * deletes none of them.
 */
export async function deleteConnections(
  teamId: string,
  userId: string,
  connectionIds: string[],
): Promise<BulkDeleteResultJson> {
  const ids = [...new Set(connectionIds)];
  return transaction(async (tx) => {
    const deactivated = new Set<string>();
    for (const id of ids) {
      const { deactivatedIds } = await deleteConnectionIn(tx, teamId, userId, id);
      for (const w of deactivatedIds) deactivated.add(w);
    }
    return { deleted: ids, deactivated_workflow_ids: [...deactivated].sort() };
  });
}
