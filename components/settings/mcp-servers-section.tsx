"use client";

import { useId, useMemo, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { deleteMcpServer, mcpServersQuery, settingsKeys } from "@/lib/queries/settings";
import { useConnectionTypes } from "@/lib/queries/connections";
import type { McpServerJson } from "@/lib/schemas/dashboard";
import { detailText } from "@/components/overview/format";
import { ErrorNote, SkeletonBlock } from "@/components/overview/section-states";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { TypeLogo } from "@/components/connections/type-logo";
import {
  EditMcpServerDialog,
  EditPermissionsDialog,
  NewMcpServerDialog,
} from "@/components/settings/mcp-server-dialogs";
import { McpServerTokens } from "@/components/settings/mcp-server-tokens";
import { McpServerApps } from "@/components/settings/connected-apps";
import { plural } from "@/lib/text/plural";
import { LocalTime } from "@/components/time/local-time";
import { AddToAiClient } from "@/components/settings/add-to-ai-client";
import Link from "next/link";

const linkButton =
  "font-medium text-indigo-700 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-indigo-600 dark:text-indigo-400";

export function McpServersSection({ team, userId, role }: { team: string; userId: string; role: "owner" | "member" }) {
  const client = useQueryClient();
  const servers = useQuery(mcpServersQuery(team));
  const [creating, setCreating] = useState(false);
  const [permissionsOf, setPermissionsOf] = useState<McpServerJson | null>(null);
  const [editing, setEditing] = useState<McpServerJson | null>(null);
  const [deleting, setDeleting] = useState<McpServerJson | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => deleteMcpServer(team, id),
    onSuccess: () => {
      setDeleting(null);
      // A background refetch: it never rejects (a failure shows in the query's own state).
      void client.invalidateQueries({ queryKey: settingsKeys.mcpServers(team) });
    },
  });

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          MCP clients connect with a token or by signing in, and reach only the connections their server allows.
        </p>
        <button type="button" className="btn-primary" onClick={() => setCreating(true)}>
          New MCP server
        </button>
      </div>
      <AddToAiClient />
      {servers.isPending ? (
        <SkeletonBlock className="h-16" />
      ) : servers.isError ? (
        <ErrorNote what="MCP servers" error={servers.error} onRetry={() => void servers.refetch()} />
      ) : servers.data.data.length === 0 ? (
        <p
          data-testid="no-mcp-servers"
          className="rounded-lg border border-dashed border-zinc-300 p-4 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400"
        >
          No MCP servers in this team yet. Create one with “New MCP server”, choose the connections it may use, then
          create a token for your MCP client.
        </p>
      ) : (
        <ul className="space-y-3" aria-label="MCP servers">
          {servers.data.data.map((s) => (
            <ServerCard
              key={s.id}
              team={team}
              server={s}
              userId={userId}
              onPermissions={() => setPermissionsOf(s)}
              onEdit={() => setEditing(s)}
              onDelete={() => setDeleting(s)}
            />
          ))}
        </ul>
      )}

      <NewMcpServerDialog team={team} open={creating} onClose={() => setCreating(false)} teamOwner={role === "owner"} />
      <EditPermissionsDialog
        team={team}
        server={permissionsOf}
        mine={permissionsOf?.owner?.id === userId}
        onClose={() => setPermissionsOf(null)}
      />
      <EditMcpServerDialog
        team={team}
        server={editing}
        mine={editing?.owner?.id === userId}
        teamOwner={role === "owner"}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        open={!!deleting}
        title={`Delete ${deleting?.name ?? "server"}?`}
        confirmLabel="Delete server"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onCancel={() => {
          setDeleting(null);
          remove.reset();
        }}
      >
        <p>
          Its {plural(deleting?.active_tokens ?? 0, "active token stops", "active tokens stop")} working, the apps
          connected to it lose their access, and its saved permissions are removed. The connections themselves stay.
          This cannot be undone.
        </p>
        {remove.isError && (
          <p role="alert" className="mt-2 text-rose-700 dark:text-rose-400">
            {detailText(remove.error)}
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}

function ServerCard({
  team,
  server: s,
  userId,
  onPermissions,
  onEdit,
  onDelete,
}: {
  team: string;
  server: McpServerJson;
  userId: string;
  onPermissions: () => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const [showTokens, setShowTokens] = useState(false);
  const tokensId = useId();
  const types = useConnectionTypes(team);
  const typeByName = useMemo(() => new Map((types.data ?? []).map((t) => [t.type, t])), [types.data]);
  const owner = s.owner ? (s.owner.id === userId ? "you" : s.owner.email) : "nobody (the owner left)";
  return (
    <li
      data-testid="mcp-server"
      data-server-id={s.id}
      className="rounded-lg border border-zinc-200 p-3 text-sm sm:p-4 dark:border-zinc-800"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 [overflow-wrap:anywhere]">
          <h3 className="truncate font-semibold">{s.name}</h3>
          <p className="text-xs text-zinc-500 dark:text-zinc-400">
            Owner {owner} · created <LocalTime seconds={s.created_at} dateOnly />
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2 text-xs">
          <span
            className={`rounded-full px-2 py-0.5 ${s.is_private ? "bg-amber-50 text-amber-800 dark:bg-amber-950 dark:text-amber-300" : "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300"}`}
          >
            {s.is_private ? "Private" : "Shared"}
          </span>
          <span
            data-testid="write-policy"
            className={`rounded-full px-2 py-0.5 ${s.write_policy === "allowed" ? "bg-rose-50 text-rose-800 dark:bg-rose-950 dark:text-rose-300" : s.write_policy === "approval" ? "bg-indigo-50 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-300" : "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300"}`}
          >
            {s.write_policy === "off"
              ? "Read only"
              : s.write_policy === "approval"
                ? "Writes need approval"
                : "Writes allowed"}
          </span>
          <span className="tabular-nums text-zinc-600 dark:text-zinc-400">
            {plural(s.connection_permissions, "connection", "connections")} allowed
          </span>
        </div>
      </div>

      <p className="mt-2 break-all text-xs text-zinc-600 dark:text-zinc-400">
        Address <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono dark:bg-zinc-800">{s.mcp_url}</code>
      </p>
      <LastActivity team={team} server={s} />

      {s.connections.length ? (
        <ul className="mt-3 flex flex-wrap gap-2" aria-label={`Connections ${s.name} may use`}>
          {s.connections.map((c) => (
            <li
              key={c.id}
              className="flex max-w-full items-center gap-1.5 rounded-full border border-zinc-200 py-0.5 pl-1 pr-2 text-xs dark:border-zinc-700"
            >
              <TypeLogo logo={typeByName.get(c.type)?.logo} size={16} />
              <span className={`truncate ${c.visible_to_you ? "" : "italic text-zinc-500 dark:text-zinc-400"}`}>
                {c.visible_to_you
                  ? (c.display_name ?? c.id)
                  : `Private connection (${typeByName.get(c.type)?.name ?? c.type})`}
              </span>
              {c.is_private && c.visible_to_you && (
                <span className="text-amber-700 dark:text-amber-300">· Private</span>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-3 text-xs text-zinc-500 dark:text-zinc-400">
          No connections allowed yet: its tokens reach nothing{s.can_manage ? " until you edit its permissions" : ""}.
        </p>
      )}

      <McpServerApps team={team} server={s} />

      <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2 border-t border-zinc-100 pt-3 dark:border-zinc-800">
        <button
          type="button"
          className={linkButton}
          aria-expanded={showTokens}
          aria-controls={tokensId}
          onClick={() => setShowTokens((v) => !v)}
        >
          {showTokens ? "Hide tokens" : "Tokens"}{" "}
          <span className="font-normal text-zinc-500 dark:text-zinc-400">({s.active_tokens} active)</span>
        </button>
        {s.can_manage ? (
          <>
            <button
              type="button"
              className={linkButton}
              onClick={onPermissions}
              aria-label={`Edit permissions of ${s.name}`}
            >
              Edit permissions
            </button>
            <button type="button" className={linkButton} onClick={onEdit} aria-label={`Rename ${s.name}`}>
              Rename
            </button>
            <button
              type="button"
              className="font-medium text-rose-700 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-rose-600 dark:text-rose-400"
              onClick={onDelete}
              aria-label={`Delete ${s.name}`}
            >
              Delete
            </button>
          </>
        ) : (
          <span className="text-xs text-zinc-500 dark:text-zinc-400">
            Only its owner or a team owner can change it.
          </span>
        )}
      </div>
      {showTokens && (
        <div id={tokensId} className="mt-3">
          <McpServerTokens team={team} server={s} />
        </div>
      )}
    </li>
  );
}

/** When the server was last used and through what, and its calls in the logs (a link to them). */
function LastActivity({ team, server: s }: { team: string; server: McpServerJson }) {
  const use = s.last_used;
  return (
    <p
      className="mt-1 text-xs text-zinc-600 [overflow-wrap:anywhere] dark:text-zinc-400"
      data-testid="mcp-last-activity"
    >
      {use ? (
        <>
          Last used <LocalTime seconds={use.at} />{" "}
          {use.via === "token" ? (
            <>
              through token {use.name ? `“${use.name}” ` : ""}
              <code className="font-mono">{use.prefix}…</code>
            </>
          ) : (
            <>
              by {use.name} (allowed by {use.by})
            </>
          )}
        </>
      ) : (
        "Not used yet"
      )}
      {" · "}
      {s.calls.count > 0 ? (
        <Link
          className="font-medium text-indigo-700 hover:underline dark:text-indigo-400"
          href={`/${team}/logs?source_type=mcp&source_id=${encodeURIComponent(s.id)}`}
        >
          {plural(s.calls.count, "call", "calls")} in the logs
        </Link>
      ) : (
        "no calls in the logs"
      )}{" "}
      since <LocalTime seconds={s.calls.since} dateOnly />
    </p>
  );
}
