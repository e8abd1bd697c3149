"use client";

import { useDeleteConnections, useDeletePreview } from "@/lib/queries/connections";
import { Dialog } from "@/components/ui/dialog";
import { ErrorNote } from "@/components/ui/error-note";

/** A connection as the lists hold it (ConnectionJson's id may be null). */
type Deletable = { id: string | null; display_name?: string | null };

/**
 * Asks before deleting one connection or several, naming the active workflows the delete will
 * deactivate (and, for several, which of the connections each uses). Nothing is deleted until
 * the workflows have been shown.
 */
export function DeleteConnectionDialog({
  teamId,
  connections,
  onClose,
  onDeleted,
}: {
  teamId: string;
  connections: Deletable[];
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const ids = connections.flatMap((c) => (c.id ? [c.id] : []));
  const preview = useDeletePreview(teamId, ids);
  const remove = useDeleteConnections(teamId);
  const close = () => {
    remove.reset();
    onClose();
  };
  const many = ids.length > 1;
  const label = (c: Deletable) => c.display_name || c.id || "";
  const nameOf = new Map(connections.map((c) => [c.id, label(c)]));
  const workflows = preview.data?.workflows ?? [];
  return (
    <Dialog
      open={ids.length > 0}
      onClose={close}
      title={many ? `Delete ${ids.length} connections?` : `Delete ${label(connections[0] ?? { id: "" })}?`}
    >
      <div className="space-y-4 text-sm">
        <p>
          Workflows, agents and MCP servers lose access to {many ? "these connections" : "this connection"} at once.
          This cannot be undone.
        </p>
        {many && (
          <ul className="max-h-40 list-disc overflow-y-auto pl-5" aria-label="Connections to delete">
            {connections.map((c) => (
              <li key={c.id} className="wrap-anywhere">
                {label(c)}
              </li>
            ))}
          </ul>
        )}
        {preview.isPending ? (
          <div
            className="h-10 animate-pulse rounded-lg bg-zinc-100 dark:bg-zinc-800"
            role="status"
            aria-label="Loading the workflows that use it"
          />
        ) : preview.isError ? (
          <ErrorNote error={preview.error} title="Could not check which workflows use it." />
        ) : workflows.length === 0 ? (
          <p className="text-zinc-600 dark:text-zinc-400">
            No active workflow uses {many ? "these connections" : "this connection"}.
          </p>
        ) : (
          <div className="rounded-lg border border-amber-200 bg-amber-50 p-3 dark:border-amber-900 dark:bg-amber-950/40">
            <p className="font-medium text-amber-900 dark:text-amber-200">
              {workflows.length === 1
                ? "This active workflow will be deactivated:"
                : `These ${workflows.length} active workflows will be deactivated:`}
            </p>
            <ul className="mt-2 max-h-48 list-disc overflow-y-auto pl-5" aria-label="Workflows to deactivate">
              {workflows.map((w) => (
                <li key={w.id} className="wrap-anywhere">
                  {w.name}
                  {many && (
                    <span className="text-zinc-600 dark:text-zinc-400">
                      {" "}
                      (uses {w.connection_ids.map((id) => nameOf.get(id) ?? id).join(", ")})
                    </span>
                  )}
                </li>
              ))}
            </ul>
          </div>
        )}
        {remove.isError && (
          <ErrorNote
            error={remove.error}
            title={many ? "No connection was deleted." : "The connection was not deleted."}
          />
        )}
        <div className="flex justify-end gap-2">
          <button type="button" className="btn-secondary" onClick={close}>
            Cancel
          </button>
          <button
            type="button"
            className="btn-danger"
            disabled={remove.isPending || !preview.isSuccess}
            onClick={() =>
              remove.mutate(ids, {
                onSuccess: () => {
                  close();
                  onDeleted?.();
                },
              })
            }
          >
            {remove.isPending ? "Deleting…" : many ? `Delete ${ids.length} connections` : "Delete connection"}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
