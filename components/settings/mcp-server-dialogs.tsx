"use client";

import { useId, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { createMcpServer, settingsKeys, updateMcpServer, type McpServerInput } from "@/lib/queries/settings";
import type { McpServerJson } from "@/lib/schemas/dashboard";
import { detailText } from "@/components/overview/format";
import { Dialog } from "@/components/ui/dialog";
import { McpConnectionPicker } from "@/components/settings/mcp-connection-picker";
import { WRITE_POLICIES, WRITE_POLICY_DESCRIPTIONS, type WritePolicy } from "@/lib/schemas/write-policy";

const InlineError = ({ error }: { error: unknown }) => (
  <p
    role="alert"
    className="rounded-lg border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800 dark:border-rose-900 dark:bg-rose-950/50 dark:text-rose-200"
  >
    {detailText(error)}
  </p>
);

function NameField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  // No `required`: a blank name goes to the API, whose message says what is wrong.
  return (
    <label className="block text-sm">
      <span className="font-medium">Name</span>
      <input
        className="input mt-1"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        maxLength={100}
        placeholder="e.g. Support assistant"
        data-autofocus
      />
    </label>
  );
}

function VisibilityField({ value, onChange }: { value: boolean; onChange: (isPrivate: boolean) => void }) {
  const group = useId();
  const option = (isPrivate: boolean, title: string, hint: string) => (
    <label className="flex flex-1 cursor-pointer gap-2 rounded-lg border border-zinc-200 p-3 text-sm has-[:checked]:border-indigo-500 has-[:checked]:bg-indigo-50/60 dark:border-zinc-800 dark:has-[:checked]:border-indigo-400 dark:has-[:checked]:bg-indigo-950/40">
      <input
        type="radio"
        name={group}
        className="mt-0.5 accent-indigo-600"
        checked={value === isPrivate}
        onChange={() => onChange(isPrivate)}
      />
      <span>
        <span className="block font-medium">{title}</span>
        <span className="block text-xs text-zinc-500 dark:text-zinc-400">{hint}</span>
      </span>
    </label>
  );
  return (
    <fieldset>
      <legend className="mb-1 text-sm font-medium">Who sees it</legend>
      <div className="flex flex-col gap-2 sm:flex-row">
        {option(false, "Shared", "Everyone in the team sees it; team owners can manage it.")}
        {option(true, "Private", "Only you see and manage it.")}
      </div>
    </fieldset>
  );
}

/**
 * What agents may do with writes (CONTRACT §8), each choice with its consequence; `allowed` for
 * team owners only (the API agrees).
 */
function WritePolicyField({
  value,
  onChange,
  teamOwner,
}: {
  value: WritePolicy;
  onChange: (policy: WritePolicy) => void;
  teamOwner: boolean;
}) {
  const group = useId();
  return (
    <fieldset>
      <legend className="mb-1 text-sm font-medium">Writes</legend>
      <div className="flex flex-col gap-2">
        {WRITE_POLICIES.map((policy) => {
          const locked = policy === "allowed" && !teamOwner && value !== "allowed";
          const { label, consequence } = WRITE_POLICY_DESCRIPTIONS[policy];
          return (
            <label
              key={policy}
              className={`flex gap-2 rounded-lg border border-zinc-200 p-3 text-sm has-[:checked]:border-indigo-500 has-[:checked]:bg-indigo-50/60 dark:border-zinc-800 dark:has-[:checked]:border-indigo-400 dark:has-[:checked]:bg-indigo-950/40 ${locked ? "cursor-not-allowed opacity-70" : "cursor-pointer"}`}
            >
              <input
                type="radio"
                name={group}
                value={policy}
                className="mt-0.5 accent-indigo-600"
                checked={value === policy}
                disabled={locked}
                onChange={() => onChange(policy)}
              />
              <span>
                <span className="block font-medium">{label}</span>
                <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                  {consequence}
                  {locked && " You are not a team owner, so you cannot choose this."}
                </span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

function Actions({ pending, label, onCancel }: { pending: boolean; label: string; onCancel: () => void }) {
  return (
    <div className="flex justify-end gap-2 pt-1">
      <button type="button" className="btn-secondary" onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className="btn-primary" disabled={pending}>
        {pending ? "Saving…" : label}
      </button>
    </div>
  );
}

function useSave<T>(team: string, fn: (input: T) => Promise<McpServerJson>, onSaved: (server: McpServerJson) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (server) => {
      // A background refetch: it never rejects (a failure shows in the query's own state).
      void client.invalidateQueries({ queryKey: settingsKeys.mcpServers(team) });
      onSaved(server);
    },
  });
}

export function NewMcpServerDialog({
  team,
  open,
  onClose,
  teamOwner,
}: {
  team: string;
  open: boolean;
  onClose: () => void;
  teamOwner: boolean;
}) {
  return (
    <Dialog open={open} onClose={onClose} title="New MCP server" className="max-w-xl">
      {open && <NewMcpServerForm team={team} onClose={onClose} teamOwner={teamOwner} />}
    </Dialog>
  );
}

function NewMcpServerForm({ team, onClose, teamOwner }: { team: string; onClose: () => void; teamOwner: boolean }) {
  const [draft, setDraft] = useState<McpServerInput>({
    name: "",
    is_private: false,
    connection_ids: [],
    write_policy: "off",
  });
  const save = useSave(team, (input: McpServerInput) => createMcpServer(team, input), onClose);
  return (
    <form
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(draft);
      }}
    >
      <NameField value={draft.name} onChange={(name) => setDraft({ ...draft, name })} />
      <VisibilityField value={draft.is_private} onChange={(is_private) => setDraft({ ...draft, is_private })} />
      <McpConnectionPicker
        team={team}
        selected={draft.connection_ids}
        onChange={(connection_ids) => setDraft({ ...draft, connection_ids })}
        includePrivate
      />
      <WritePolicyField
        value={draft.write_policy ?? "off"}
        onChange={(write_policy) => setDraft({ ...draft, write_policy })}
        teamOwner={teamOwner}
      />
      {save.isError && <InlineError error={save.error} />}
      <Actions pending={save.isPending} label="Create server" onCancel={onClose} />
    </form>
  );
}

/** Replaces the saved permissions as a whole. */
export function EditPermissionsDialog({
  team,
  server,
  mine,
  onClose,
}: {
  team: string;
  server: McpServerJson | null;
  mine: boolean;
  onClose: () => void;
}) {
  return (
    <Dialog open={!!server} onClose={onClose} title={`Permissions of ${server?.name ?? ""}`} className="max-w-xl">
      {server && <EditPermissionsForm team={team} server={server} mine={mine} onClose={onClose} />}
    </Dialog>
  );
}

function EditPermissionsForm({
  team,
  server,
  mine,
  onClose,
}: {
  team: string;
  server: McpServerJson;
  mine: boolean;
  onClose: () => void;
}) {
  const [ids, setIds] = useState(server.connections.map((c) => c.id));
  const save = useSave(
    team,
    (connection_ids: string[]) => updateMcpServer(team, server.id, { connection_ids }),
    onClose,
  );
  return (
    <form
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(ids);
      }}
    >
      <McpConnectionPicker
        team={team}
        selected={ids}
        onChange={setIds}
        includePrivate={mine}
        permitted={server.connections}
      />
      {save.isError && <InlineError error={save.error} />}
      <Actions pending={save.isPending} label="Save permissions" onCancel={onClose} />
    </form>
  );
}

/** Name, and (for the server's own owner only; the API agrees) shared or private. */
export function EditMcpServerDialog({
  team,
  server,
  mine,
  teamOwner,
  onClose,
}: {
  team: string;
  server: McpServerJson | null;
  mine: boolean;
  teamOwner: boolean;
  onClose: () => void;
}) {
  return (
    <Dialog open={!!server} onClose={onClose} title={`Edit ${server?.name ?? ""}`} className="max-w-lg">
      {server && <EditMcpServerForm team={team} server={server} mine={mine} teamOwner={teamOwner} onClose={onClose} />}
    </Dialog>
  );
}

function EditMcpServerForm({
  team,
  server,
  mine,
  teamOwner,
  onClose,
}: {
  team: string;
  server: McpServerJson;
  mine: boolean;
  teamOwner: boolean;
  onClose: () => void;
}) {
  const [name, setName] = useState(server.name);
  const [isPrivate, setIsPrivate] = useState(server.is_private);
  const [writePolicy, setWritePolicy] = useState<WritePolicy>(server.write_policy);
  const save = useSave(team, (patch: Partial<McpServerInput>) => updateMcpServer(team, server.id, patch), onClose);
  return (
    <form
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        const policy = writePolicy !== server.write_policy ? { write_policy: writePolicy } : {};
        save.mutate(mine ? { name, is_private: isPrivate, ...policy } : { name, ...policy });
      }}
    >
      <NameField value={name} onChange={setName} />
      {mine ? (
        <VisibilityField value={isPrivate} onChange={setIsPrivate} />
      ) : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Only its owner{server.owner ? ` (${server.owner.email})` : ""} can make this server private.
        </p>
      )}
      <WritePolicyField value={writePolicy} onChange={setWritePolicy} teamOwner={teamOwner} />
      {save.isError && <InlineError error={save.error} />}
      <Actions pending={save.isPending} label="Save" onCancel={onClose} />
    </form>
  );
}
