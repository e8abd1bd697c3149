"use client";

import { useState } from "react";
import { useRenameConnection } from "@/lib/queries/connections";
import { Dialog } from "@/components/ui/dialog";
import { ErrorNote } from "@/components/ui/error-note";

/** *Rename*: the connection's display name (what lists and pickers show); nothing else changes. */
export function RenameConnectionDialog({
  teamId,
  connectionId,
  current,
  open,
  onClose,
}: {
  teamId: string;
  connectionId: string;
  current: string;
  open: boolean;
  onClose: () => void;
}) {
  return (
    <Dialog open={open} onClose={onClose} title="Rename connection">
      {/* Mounted while open, so the field starts from the current name each time. */}
      {open && <RenameForm teamId={teamId} connectionId={connectionId} current={current} onClose={onClose} />}
    </Dialog>
  );
}

function RenameForm({
  teamId,
  connectionId,
  current,
  onClose,
}: {
  teamId: string;
  connectionId: string;
  current: string;
  onClose: () => void;
}) {
  const [name, setName] = useState(current);
  const rename = useRenameConnection(teamId, connectionId);
  return (
    <form
      className="space-y-4 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        rename.mutate(name, { onSuccess: onClose });
      }}
    >
      <label className="block">
        <span className="mb-1 block font-medium">Name</span>
        <input
          className="input"
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={100}
          data-autofocus
        />
      </label>
      <p className="text-zinc-600 dark:text-zinc-400">
        Workflows, MCP servers and agents keep using it under its id; only the label changes.
      </p>
      {rename.isError && <ErrorNote error={rename.error} title="The connection was not renamed." />}
      <div className="flex justify-end gap-2">
        <button type="button" className="btn-secondary" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="btn-primary" disabled={rename.isPending}>
          {rename.isPending ? "Saving…" : "Save name"}
        </button>
      </div>
    </form>
  );
}
