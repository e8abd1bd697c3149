"use client";

import { useActiveWorkflowsOf, useDeleteConnection } from "@/lib/queries/connections";
import type { ConnectionJson } from "@/lib/schemas/connections";
import { Dialog } from "@/components/ui/dialog";
import { ErrorNote } from "@/components/ui/error-note";

/** Asks before deleting, naming the active workflows the delete will deactivate. */
export function DeleteConnectionDialog({
  teamId,
  connection,
  onClose,
}: {
  teamId: string;
  connection: ConnectionJson | null;
  onClose: () => void;
}) {
  const workflows = useActiveWorkflowsOf(teamId, connection?.id ?? null);
  const remove = useDeleteConnection(teamId);
  const close = () => {
    remove.reset();
    onClose();
  };
  const name = connection?.display_name ?? connection?.id ?? "";
  return (
    <Dialog open={connection !== null} onClose={close} title={`Delete ${name}?`}>
      <div className="space-y-4 text-sm">
        <p>Workflows, agents and MCP servers lose access to this connection at once. This cannot be undone.</p>
        {workflows.isPending ? (
          <div
            className="h-10 animate-pulse rounded-lg bg-zinc-100 dark:bg-zinc-800"
            role="status"
            aria-label="Loading the workflows that use it"
          />
        ) : workflows.isError ? (
          <ErrorNote error={workflows.error} title="Could not check which workflows use it." />
        ) : workflows.data.length === 0 ? (
          <p className="text-zinc-600 dark:text-zinc-400">No active workflow uses this connection.</p>
        ) : (
          <div className="rounded-lg border border-amber-200 bg-amber-50 p-3 dark:border-amber-900 dark:bg-amber-950/40">
            <p className="font-medium text-amber-900 dark:text-amber-200">
              {workflows.data.length === 1
                ? "This active workflow will be deactivated:"
                : `These ${workflows.data.length} active workflows will be deactivated:`}
            </p>
            <ul className="mt-2 list-disc pl-5" aria-label="Workflows to deactivate">
              {workflows.data.map((w) => (
                <li key={w.id}>{w.name}</li>
              ))}
            </ul>
          </div>
        )}
        {remove.isError && <ErrorNote error={remove.error} title="The connection was not deleted." />}
        <div className="flex justify-end gap-2">
          <button type="button" className="btn-secondary" onClick={close}>
            Cancel
          </button>
          <button
            type="button"
            className="btn-danger"
            disabled={remove.isPending || workflows.isPending}
            onClick={() => connection?.id && remove.mutate(connection.id, { onSuccess: close })}
          >
            {remove.isPending ? "Deleting…" : "Delete connection"}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
