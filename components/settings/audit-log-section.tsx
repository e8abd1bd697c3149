"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { auditEventsQuery } from "@/lib/queries/settings";
import { AUDIT_ACTIONS, type AuditAction } from "@/lib/schemas/audit-actions";
import type { AuditEventJson } from "@/lib/schemas/audit";
import { ErrorNote, SkeletonBlock } from "@/components/overview/section-states";
import { useUrlFilters } from "@/components/data-table/use-url-filters";
import { Notice } from "@/components/settings/notice";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { LocalTime } from "@/components/time/local-time";

const FILTER_KEYS = ["audit_action"] as const;

const ACTION_LABELS: Record<AuditAction, string> = {
  "api_key.create": "API key created",
  "api_key.revoke": "API key revoked",
  "connection.create": "Connection created",
  "connection.replace": "Connection replaced",
  "connection.delete": "Connection deleted",
  "connection.rename": "Connection renamed",
  "auth_link.create": "Auth link created",
  "invite.create": "Invite sent",
  "invite.revoke": "Invite withdrawn",
  "invite.accept": "Invite accepted",
  "member.role_change": "Role changed",
  "member.remove": "Member removed",
  "member.leave": "Member left",
  "mcp_server.create": "MCP server created",
  "mcp_server.update": "MCP server changed",
  "mcp_server.delete": "MCP server deleted",
  "mcp_token.create": "MCP token created",
  "mcp_token.revoke": "MCP token revoked",
  "oauth_grant.create": "App connected (OAuth)",
  "oauth_grant.revoke": "App access revoked",
  "webhook_endpoint.create": "Webhook endpoint added",
  "webhook_endpoint.update": "Webhook endpoint changed",
  "webhook_endpoint.rotate_secret": "Webhook secret rotated",
  "webhook_endpoint.delete": "Webhook endpoint deleted",
  "webhook_endpoint.disable": "Webhook endpoint disabled",
  "team.low_credits_change": "Low-credits threshold changed",
  "user.sign_out_everywhere": "Signed out everywhere",
  "mcp_server.write_policy_change": "MCP write policy changed",
  "approval.approve": "Write approved",
  "approval.reject": "Write rejected",
  "team.self_approval_change": "Self-approval rule changed",
  "workflow.create": "Workflow created",
  "workflow.update": "Workflow changed",
  "workflow.delete": "Workflow deleted",
  "workflow.rebind": "Workflow rebound to a connection",
  "workflow.rotate_webhook": "Workflow webhook URL rotated",
  "workflow.replay": "Workflow run replayed",
  "workflow.deactivate": "Workflow stopped by Patchbay",
};

const ACTOR_KINDS: Record<string, string> = {
  session: "dashboard",
  api_key: "API key",
  cli: "command line",
  auth_link: "auth link",
  invite_link: "invite link",
  system: "system",
};

export function AuditLogSection({ team, role }: { team: string; role: "owner" | "member" }) {
  if (role !== "owner") {
    return (
      <Notice title="Only team owners can read the audit log" testId="audit-owner-notice">
        The audit log shows who created or revoked keys and tokens, changed connections and changed the team&apos;s
        members, so it is visible to owners only. Ask an owner of this team if you need to know about a change.
      </Notice>
    );
  }
  return <OwnerAuditLog team={team} />;
}

function OwnerAuditLog({ team }: { team: string }) {
  const { filters, setFilter } = useUrlFilters(FILTER_KEYS);
  const action = AUDIT_ACTIONS.find((a) => a === filters.audit_action);
  const events = useInfiniteQuery(auditEventsQuery(team, action));
  const rows = events.data?.pages.flatMap((p) => p.data) ?? [];

  return (
    <div className="space-y-3">
      <label className="block max-w-xs text-sm">
        <span className="font-medium">Action</span>
        <select
          className="input mt-1"
          value={action ?? ""}
          onChange={(e) => setFilter("audit_action", e.target.value || undefined)}
        >
          <option value="">All actions</option>
          {AUDIT_ACTIONS.map((a) => (
            <option key={a} value={a}>
              {ACTION_LABELS[a]}
            </option>
          ))}
        </select>
      </label>
      {events.isPending ? (
        <SkeletonBlock className="h-24" />
      ) : events.isError ? (
        <ErrorNote what="the audit log" error={events.error} onRetry={() => void events.refetch()} />
      ) : rows.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {action
            ? `No “${ACTION_LABELS[action]}” events yet.`
            : "Nothing recorded yet: changes to keys, connections, members and MCP servers appear here."}
        </p>
      ) : (
        <ScrollRegion label="Audit log table">
          <table className="w-full min-w-[44rem] text-left text-sm" aria-label="Audit log">
            <thead className="text-xs uppercase tracking-wide text-zinc-500 dark:text-zinc-400">
              <tr>
                <th className="py-2 pr-3 font-medium">When</th>
                <th className="py-2 pr-3 font-medium">Who</th>
                <th className="py-2 pr-3 font-medium">Action</th>
                <th className="py-2 pr-3 font-medium">Target</th>
                <th className="py-2 font-medium">Details</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {rows.map((e) => (
                <tr key={e.id} data-action={e.action}>
                  <td className="py-2 pr-3 whitespace-nowrap">
                    <LocalTime seconds={Math.floor(e.created_at / 1000)} />
                  </td>
                  <td className="py-2 pr-3">
                    <div>{e.actor.email ?? <span className="text-zinc-500 dark:text-zinc-400">—</span>}</div>
                    <div className="text-xs text-zinc-500 dark:text-zinc-400">
                      via {ACTOR_KINDS[e.actor.kind] ?? e.actor.kind}
                    </div>
                  </td>
                  <td className="py-2 pr-3 whitespace-nowrap font-medium">{ACTION_LABELS[e.action] ?? e.action}</td>
                  <td className="py-2 pr-3 font-mono text-xs">{e.target.id ?? e.target.type}</td>
                  <td className="py-2 text-xs text-zinc-600 dark:text-zinc-400">{describeDetails(e)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {events.hasNextPage && (
        <button
          type="button"
          className="btn-secondary"
          onClick={() => void events.fetchNextPage()}
          disabled={events.isFetchingNextPage}
        >
          {events.isFetchingNextPage ? "Loading…" : "Load older events"}
        </button>
      )}
    </div>
  );
}

/** "name: CI key · prefix: pbk_abc…" — the recorded facts, short. */
function describeDetails(e: AuditEventJson): string {
  return Object.entries(e.details)
    .filter(([, v]) => v !== null && v !== "")
    .map(([k, v]) => `${k.replace(/_/g, " ")}: ${Array.isArray(v) ? v.join(", ") || "none" : String(v)}`)
    .join(" · ");
}
