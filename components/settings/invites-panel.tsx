"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createInvite, invitesQuery, revokeInvite, settingsKeys } from "@/lib/queries/settings";
import type { CreatedInviteJson, MemberJson } from "@/lib/schemas/dashboard";
import { detailText } from "@/components/overview/format";
import { ErrorNote, SkeletonBlock } from "@/components/overview/section-states";
import { CopyField } from "@/components/ui/copy-field";
import { LocalTime } from "@/components/time/local-time";

/**
 * Owners invite by email: the result is a link to send, shown once (it is stored only as a
 * hash); an open invite can be replaced by a new link or withdrawn.
 */
export function InvitesPanel({ team }: { team: string }) {
  const client = useQueryClient();
  const invites = useQuery(invitesQuery(team));
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<MemberJson["role"]>("member");
  const [created, setCreated] = useState<CreatedInviteJson | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: settingsKeys.invites(team) });
  const create = useMutation({
    mutationFn: (invite: { email: string; role: MemberJson["role"] }) => createInvite(team, invite),
    onSuccess: (invite) => {
      setCreated(invite);
      setEmail("");
      // A background refetch: it never rejects (a failure shows in the query's own state).
      void refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => revokeInvite(team, id),
    onSuccess: (_, id) => {
      if (created?.id === id) setCreated(null);
      // A background refetch: it never rejects (a failure shows in the query's own state).
      void refresh();
    },
  });

  return (
    <div className="space-y-3 rounded-lg border border-zinc-200 p-3 dark:border-zinc-800">
      <form
        className="flex flex-col gap-2 sm:flex-row sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          if (email.trim()) create.mutate({ email: email.trim(), role });
        }}
      >
        <label className="block flex-1 text-sm">
          <span className="font-medium">Invite by email</span>
          <input
            className="input mt-1"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            maxLength={254}
            placeholder="colleague@example.com"
            required
          />
        </label>
        <label className="block text-sm">
          <span className="font-medium">Role</span>
          <select className="input mt-1" value={role} onChange={(e) => setRole(e.target.value as MemberJson["role"])}>
            <option value="member">Member</option>
            <option value="owner">Owner</option>
          </select>
        </label>
        <button type="submit" className="btn-primary" disabled={create.isPending || !email.trim()}>
          {create.isPending ? "Creating…" : "Create invite"}
        </button>
      </form>
      {create.isError && (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-400">
          Could not invite: {detailText(create.error)}
        </p>
      )}
      {created && (
        <div
          data-testid="new-invite"
          className="rounded-lg border border-emerald-200 bg-emerald-50 p-3 dark:border-emerald-900 dark:bg-emerald-950/40"
        >
          <CopyField value={created.url} label={`Invite link for ${created.email}`} />
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            Send this link to {created.email}. It works once, until <LocalTime seconds={created.expires_at} />; they
            join as {created.role === "owner" ? "an owner" : "a member"}.
          </p>
        </div>
      )}
      {invites.isPending ? (
        <SkeletonBlock className="h-10" />
      ) : invites.isError ? (
        <ErrorNote what="invites" error={invites.error} onRetry={() => void invites.refetch()} />
      ) : invites.data.data.length > 0 ? (
        <ul aria-label="Open invites" className="divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
          {invites.data.data.map((invite) => (
            <li key={invite.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div className="min-w-0">
                <p className="truncate font-medium">{invite.email}</p>
                <p className="text-xs text-zinc-500 dark:text-zinc-400">
                  {invite.role === "owner" ? "Owner" : "Member"} ·{" "}
                  {invite.status === "expired" ? (
                    <span className="text-amber-700 dark:text-amber-400">
                      expired <LocalTime seconds={invite.expires_at} />
                    </span>
                  ) : (
                    <>
                      pending until <LocalTime seconds={invite.expires_at} />
                    </>
                  )}
                  {invite.invited_by && <> · by {invite.invited_by.email}</>}
                </p>
              </div>
              <div className="flex gap-1">
                {invite.status === "expired" ? (
                  <button
                    type="button"
                    className="btn-secondary px-2 py-1"
                    onClick={() => (setEmail(invite.email), setRole(invite.role), create.reset())}
                  >
                    Invite again
                  </button>
                ) : (
                  <button
                    type="button"
                    className="btn-secondary px-2 py-1"
                    aria-label={`New link for ${invite.email} (the current one stops working)`}
                    disabled={create.isPending}
                    onClick={() => create.mutate({ email: invite.email, role: invite.role })}
                  >
                    New link
                  </button>
                )}
                <button
                  type="button"
                  aria-label={`Withdraw the invite for ${invite.email}`}
                  className="rounded-md px-2 py-1 text-rose-700 hover:bg-rose-50 dark:text-rose-400 dark:hover:bg-rose-950/50"
                  disabled={revoke.isPending}
                  onClick={() => revoke.mutate(invite.id)}
                >
                  Withdraw
                </button>
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p data-testid="no-open-invites" className="text-xs text-zinc-500 dark:text-zinc-400">
          No open invites. An invite link works once, for the address it names, for 7 days.
        </p>
      )}
      {revoke.isError && (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-400">
          Could not withdraw the invite: {detailText(revoke.error)}
        </p>
      )}
    </div>
  );
}
