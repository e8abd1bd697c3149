"use client";

import { useQuery } from "@tanstack/react-query";
import { mcpServersQuery } from "@/lib/queries/settings";
import { ErrorNote, SkeletonBlock } from "@/components/overview/section-states";

export function McpServersSection({ team }: { team: string }) {
  const servers = useQuery(mcpServersQuery(team));
  return (
    <div className="space-y-3">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">Read-only for now: MCP tokens and editing saved connection permissions come with the MCP endpoint.</p>
      {servers.isPending ? (
        <SkeletonBlock className="h-16" />
      ) : servers.isError ? (
        <ErrorNote what="MCP servers" error={servers.error} onRetry={() => servers.refetch()} />
      ) : servers.data.data.length === 0 ? (
        <p data-testid="no-mcp-servers" className="text-sm text-zinc-600 dark:text-zinc-400">
          No MCP servers in this team yet. Servers you and your team create appear here with their owner and the connections they may use.
        </p>
      ) : (
        <ul className="divide-y divide-zinc-200 dark:divide-zinc-800" aria-label="MCP servers">
          {servers.data.data.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <div className="min-w-0">
                <p className="truncate font-medium">{s.name}</p>
                <p className="text-xs text-zinc-500 dark:text-zinc-400">{s.owner ? `Owner ${s.owner.email}` : "No owner"}</p>
              </div>
              <div className="flex items-center gap-2 text-xs">
                <span className={`rounded-full px-2 py-0.5 ${s.is_private ? "bg-amber-50 text-amber-800 dark:bg-amber-950 dark:text-amber-300" : "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300"}`}>
                  {s.is_private ? "Private" : "Shared"}
                </span>
                <span className="tabular-nums text-zinc-600 dark:text-zinc-400">
                  {s.connection_permissions} {s.connection_permissions === 1 ? "connection" : "connections"} allowed
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
