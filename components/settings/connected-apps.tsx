"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { connectedAppsQuery, mcpAppsQuery, revokeConnectedApp, settingsKeys } from "@/lib/queries/settings";
import type { ConnectedAppJson, McpServerJson } from "@/lib/schemas/dashboard";
import { LocalTime } from "@/components/time/local-time";
import { ErrorNote, SkeletonBlock } from "@/components/overview/section-states";
import { RevokeButton, RevokeDialog } from "@/components/ui/revoke";
import { plural } from "@/lib/text/plural";

// Connected apps: AI clients (claude.ai, ChatGPT, Cursor…) a member allowed by OAuth to act as
// them on one MCP server. Listed per server (Settings → MCP servers) and per person (Settings →
// Your sessions); either list revokes, and both are refreshed after.

const verifiedBadge =
  "ml-2 whitespace-nowrap rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-normal text-emerald-700 " +
  "dark:bg-emerald-950 dark:text-emerald-300";

/** The apps signed in to `server`, under its card; always shown, since they are who can act through it. */
export function McpServerApps({ team, server }: { team: string; server: McpServerJson }) {
  const apps = useQuery(mcpAppsQuery(team, server.id));
  return (
    <div className="mt-3 border-t border-zinc-100 pt-3 dark:border-zinc-800">
      <h4 className="mb-2 text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">
        Connected apps
      </h4>
      {apps.isPending ? (
        <SkeletonBlock className="h-10" />
      ) : apps.isError ? (
        <ErrorNote what="connected apps" error={apps.error} onRetry={() => void apps.refetch()} />
      ) : apps.data.data.length === 0 ? (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">
          {server.active_tokens > 0
            ? // Clients configured with a token (Claude Desktop, scripts) never sign in: that is no sign of disuse.
              `No app has signed in with OAuth: clients use this server through its ${plural(server.active_tokens, "active token", "active tokens")} (see Tokens). For an app that signs in instead, `
            : server.last_used?.via === "app"
              ? "No app is signed in to this server now: "
              : "No app has signed in to this server yet: "}
          {server.can_manage
            ? "paste the MCP URL above into an AI client (claude.ai, ChatGPT, Cursor…) and choose this server when Patchbay asks."
            : "its owner or a team owner can add one by pasting the MCP URL above into an AI client (claude.ai, ChatGPT, Cursor…)."}
        </p>
      ) : (
        <ConnectedAppList team={team} apps={apps.data.data} label={`Apps connected to ${server.name}`} />
      )}
    </div>
  );
}

/** Settings → Your sessions: the apps the signed-in member allowed in this team, on any server. */
export function ConnectedAppsSection({ team }: { team: string }) {
  const apps = useQuery(connectedAppsQuery(team));
  return apps.isPending ? (
    <SkeletonBlock className="h-12" />
  ) : apps.isError ? (
    <ErrorNote what="your connected apps" error={apps.error} onRetry={() => void apps.refetch()} />
  ) : apps.data.data.length === 0 ? (
    <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="no-connected-apps">
      You have not allowed any app in this team. When an AI client (claude.ai, ChatGPT, Cursor…) asks to use Patchbay
      and you allow it, it is listed here until you revoke it.
    </p>
  ) : (
    <ConnectedAppList team={team} apps={apps.data.data} label="Apps you allowed" mine />
  );
}

/**
 * The list and its revocation, with a confirmation like a token's. `mine` is the member's own
 * list: it names each app's server instead of who allowed it (always them).
 */
function ConnectedAppList({
  team,
  apps,
  label,
  mine = false,
}: {
  team: string;
  apps: ConnectedAppJson[];
  label: string;
  mine?: boolean;
}) {
  const client = useQueryClient();
  const [revoking, setRevoking] = useState<ConnectedAppJson | null>(null);
  const revoke = useMutation({
    mutationFn: (app: ConnectedAppJson) => revokeConnectedApp(team, app.id),
    onSuccess: () => setRevoking(null),
    // Both lists, also after a failure (revoked meanwhile from elsewhere, say). A background
    // refetch: it never rejects (a failure shows in the query's own state).
    onSettled: (_data, _error, app) => {
      void client.invalidateQueries({ queryKey: settingsKeys.mcpApps(team, app.mcp_server.id) });
      void client.invalidateQueries({ queryKey: settingsKeys.connectedApps(team) });
      void client.invalidateQueries({ queryKey: settingsKeys.mcpServers(team) });
    },
  });

  return (
    <>
      <ul
        className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
        aria-label={label}
      >
        {apps.map((a) => (
          <li
            key={a.id}
            data-grant-id={a.id}
            className="flex flex-col gap-x-4 gap-y-1 px-3 py-2 text-sm sm:flex-row sm:items-center"
          >
            <div className="min-w-0 flex-1 [overflow-wrap:anywhere]">
              <p className="font-medium">
                {a.client.name}
                {a.client.verified && (
                  <span className={verifiedBadge} title={`Its metadata document at ${hostOf(a.client.id)} names it`}>
                    Verified
                  </span>
                )}
              </p>
              <p className="text-xs text-zinc-500 dark:text-zinc-400">
                {mine ? `On ${a.mcp_server.name}` : `Allowed by ${a.granted_by.email}`} · {mine ? "allowed" : "on"}{" "}
                <LocalTime seconds={a.created_at} /> ·{" "}
                {a.last_used_at ? (
                  <>
                    last used <LocalTime seconds={a.last_used_at} />
                  </>
                ) : (
                  "never used"
                )}
              </p>
            </div>
            {a.can_revoke && (
              <div className="flex shrink-0 items-center gap-4">
                <RevokeButton
                  // The member's own list spans servers, where the same app may be twice.
                  label={mine ? `Revoke ${a.client.name} on ${a.mcp_server.name}` : `Revoke ${a.client.name}`}
                  onClick={() => setRevoking(a)}
                />
              </div>
            )}
          </li>
        ))}
      </ul>
      <RevokeDialog
        target={revoking}
        title={`Revoke ${revoking?.client.name ?? "app"}?`}
        confirmLabel="Revoke access"
        revoke={revoke}
        onCancel={() => setRevoking(null)}
      >
        <p>
          {revoking?.client.name} can no longer act as {revoking?.granted_by.email} on {revoking?.mcp_server.name}: its
          next call is refused, and writes it left waiting for approval are cancelled. To use it again, someone must
          allow it again.
        </p>
      </RevokeDialog>
    </>
  );
}

function hostOf(url: string) {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
