"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { changeMemberRole, membersQuery, settingsKeys } from "@/lib/queries/settings";
import type { MemberJson } from "@/lib/schemas/dashboard";
import { detailText, formatDate } from "@/components/overview/format";
import { ErrorNote, SkeletonBlock } from "@/components/overview/section-states";

export function MembersSection({ team, role, userId }: { team: string; role: "owner" | "member"; userId: string }) {
  const client = useQueryClient();
  const members = useQuery(membersQuery(team));
  const change = useMutation({
    mutationFn: (v: { userId: string; role: MemberJson["role"] }) => changeMemberRole(team, v.userId, v.role),
    // Refetch either way: on a refusal the select must show the role that stayed.
    onSettled: () => client.invalidateQueries({ queryKey: settingsKeys.members(team) }),
  });
  if (members.isPending) return <SkeletonBlock className="h-24" />;
  if (members.isError) return <ErrorNote what="members" error={members.error} onRetry={() => members.refetch()} />;
  const isOwner = role === "owner";
  return (
    <div className="space-y-3">
      {!isOwner && <p className="text-sm text-zinc-600 dark:text-zinc-400">Only owners can change roles. Owners manage API keys and members; members use everything else.</p>}
      {change.isError && (
        <p role="alert" className="rounded-lg border border-rose-200 bg-rose-50 p-3 text-sm text-rose-800 dark:border-rose-900 dark:bg-rose-950/60 dark:text-rose-200">
          Could not change the role: {detailText(change.error)}
        </p>
      )}
      <ul className="divide-y divide-zinc-200 dark:divide-zinc-800" aria-label="Members">
        {members.data.data.map((m) => (
          <li key={m.user_id} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <div className="min-w-0">
              <p className="truncate text-sm font-medium">
                {m.email}
                {m.user_id === userId && <span className="ml-2 text-xs font-normal text-zinc-500">(you)</span>}
              </p>
              <p className="text-xs text-zinc-500 dark:text-zinc-400">Joined {formatDate(m.joined_at)}</p>
            </div>
            {isOwner ? (
              <label className="flex items-center gap-2 text-sm">
                <span className="sr-only">Role of {m.email}</span>
                <select
                  className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 dark:border-zinc-700 dark:bg-zinc-900"
                  value={change.isPending && change.variables?.userId === m.user_id ? change.variables.role : m.role}
                  disabled={change.isPending}
                  onChange={(e) => change.mutate({ userId: m.user_id, role: e.target.value as MemberJson["role"] })}
                >
                  <option value="owner">Owner</option>
                  <option value="member">Member</option>
                </select>
              </label>
            ) : (
              <span className="rounded-full bg-zinc-100 px-2 py-0.5 text-xs font-medium capitalize text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">{m.role}</span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
