"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { changeMemberRole, membersQuery, removeMember, settingsKeys } from "@/lib/queries/settings";
import type { MemberJson } from "@/lib/schemas/dashboard";
import { detailText } from "@/components/overview/format";
import { ErrorNote, SkeletonBlock } from "@/components/overview/section-states";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Alert } from "@/components/ui/alert";
import { InvitesPanel } from "@/components/settings/invites-panel";
import { LocalTime } from "@/components/time/local-time";

/** Members and their roles; owners invite, change roles and remove; anyone can leave. */
export function MembersSection({ team, role, userId }: { team: string; role: "owner" | "member"; userId: string }) {
  const client = useQueryClient();
  const router = useRouter();
  const members = useQuery(membersQuery(team));
  const [removing, setRemoving] = useState<MemberJson | null>(null);
  const change = useMutation({
    mutationFn: (v: { userId: string; role: MemberJson["role"] }) => changeMemberRole(team, v.userId, v.role),
    // Refetch either way: on a refusal the select must show the role that stayed.
    onSettled: () => client.invalidateQueries({ queryKey: settingsKeys.members(team) }),
  });
  const remove = useMutation({
    mutationFn: (m: MemberJson) => removeMember(team, m.user_id),
    onSuccess: (_, m) => {
      setRemoving(null);
      // Leaving the team: this page is no longer ours to see.
      if (m.user_id === userId) return router.replace("/");
      // A background refetch: it never rejects (a failure shows in the query's own state).
      void client.invalidateQueries({ queryKey: settingsKeys.members(team) });
      void client.invalidateQueries({ queryKey: settingsKeys.apiKeys(team) });
    },
  });
  if (members.isPending) return <SkeletonBlock className="h-24" />;
  if (members.isError) return <ErrorNote what="members" error={members.error} onRetry={() => void members.refetch()} />;
  const isOwner = role === "owner";
  const leaving = removing?.user_id === userId;
  return (
    <div className="space-y-4">
      {!isOwner && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Only owners invite people and change roles. Owners manage API keys and members; members use everything else.
        </p>
      )}
      {isOwner && <InvitesPanel team={team} />}
      {change.isError && <Alert>Could not change the role: {detailText(change.error)}</Alert>}
      <ul className="divide-y divide-zinc-200 dark:divide-zinc-800" aria-label="Members">
        {members.data.data.map((m) => (
          <li key={m.user_id} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <div className="min-w-0">
              <p className="truncate text-sm font-medium">
                {m.email}
                {m.user_id === userId && (
                  <span className="ml-2 text-xs font-normal text-zinc-500 dark:text-zinc-400">(you)</span>
                )}
              </p>
              <p className="text-xs text-zinc-500 dark:text-zinc-400">
                Joined <LocalTime seconds={m.joined_at} dateOnly />
              </p>
            </div>
            <div className="flex items-center gap-2">
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
                <span className="rounded-full bg-zinc-100 px-2 py-0.5 text-xs font-medium capitalize text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
                  {m.role}
                </span>
              )}
              {(isOwner || m.user_id === userId) && (
                <button
                  type="button"
                  className="rounded-md px-2 py-1 text-sm text-rose-700 hover:bg-rose-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-rose-600 dark:text-rose-400 dark:hover:bg-rose-950/50"
                  aria-label={m.user_id === userId ? "Leave the team" : `Remove ${m.email}`}
                  onClick={() => {
                    remove.reset();
                    setRemoving(m);
                  }}
                >
                  {m.user_id === userId ? "Leave" : "Remove"}
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={!!removing}
        title={leaving ? "Leave this team?" : `Remove ${removing?.email ?? ""}?`}
        confirmLabel={leaving ? "Leave team" : "Remove member"}
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
        onCancel={() => setRemoving(null)}
      >
        <p>
          {leaving
            ? "You lose access to this team at once; an owner can invite you back."
            : `${removing?.email} loses access to this team at once.`}{" "}
          API keys {leaving ? "you" : "they"} created for this team are revoked, and MCP tokens{" "}
          {leaving ? "you" : "they"} created stop working. {leaving ? "Your" : "Their"} private connections stay stored,
          hidden from everyone, and come back if {leaving ? "you rejoin" : "they rejoin"}.
        </p>
        {remove.isError && <Alert className="mt-3">{detailText(remove.error)}</Alert>}
      </ConfirmDialog>
    </div>
  );
}
