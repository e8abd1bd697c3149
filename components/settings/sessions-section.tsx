"use client";

import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { signOutEverywhere } from "@/lib/queries/settings";
import { detailText } from "@/components/overview/format";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

/** Ends every session of the signed-in user (a lost laptop, a shared computer), then this one's cookie. */
export function SessionsSection({ team, email }: { team: string; email: string }) {
  const [confirming, setConfirming] = useState(false);
  const end = useMutation({
    mutationFn: () => signOutEverywhere(team),
    onSuccess: () => signOut({ callbackUrl: "/sign-in" }),
  });
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Signed in as <strong className="font-medium text-zinc-900 dark:text-zinc-100">{email}</strong>. Signing out
        everywhere ends every session of this account, on every device and in every team, this one too. API keys, MCP
        tokens and connected apps keep working: revoke an app below.
      </p>
      <button type="button" className="btn-secondary shrink-0" onClick={() => setConfirming(true)}>
        Sign out everywhere
      </button>
      {end.isError && (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-400">
          Could not sign out everywhere: {detailText(end.error)}
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        title="Sign out everywhere?"
        confirmLabel="Sign out everywhere"
        pending={end.isPending}
        onConfirm={() => end.mutate()}
        onCancel={() => setConfirming(false)}
      >
        Every session of {email} ends now, including this one: you will sign in again.
      </ConfirmDialog>
    </div>
  );
}
