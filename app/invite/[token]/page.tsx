import type { Metadata } from "next";
import Link from "next/link";
import { findInvite } from "@/lib/members/invites";
import { currentUser } from "@/lib/auth/current-user";
import { ConnectMessage, ConnectShell } from "@/components/connect/connect-shell";
import { SignOutButton } from "@/components/shell/sign-out-button";
import { NewAccountForm } from "@/components/invite/new-account-form";
import { Alert } from "@/components/ui/alert";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Join a team · Patchbay", robots: { index: false } };

type Props = {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** An invite link: who invited whom to which team, and the one step that joins it. */
export default async function InvitePage({ params, searchParams }: Props) {
  const { token } = await params;
  const { error } = await searchParams;
  const invite = await findInvite(token);
  if (!invite) {
    return (
      <ConnectMessage tone="error" title="This invite isn't valid">
        <p>
          Check that you opened the whole link you were sent. If it still doesn&apos;t work, ask the team owner for a
          new invite.
        </p>
      </ConnectMessage>
    );
  }
  const team = invite.team.name;
  if (invite.state !== "pending") {
    const text = {
      expired: `Invites work for 7 days. Ask an owner of ${team} to invite you again.`,
      revoked: `An owner of ${team} withdrew it. Ask them for a new invite if you still need access.`,
      accepted: `It has been used to join ${team}. Sign in to open the team.`,
    }[invite.state];
    return (
      <ConnectMessage
        tone="warning"
        title={`This invite has ${invite.state === "expired" ? "expired" : invite.state === "revoked" ? "been withdrawn" : "already been accepted"}`}
      >
        <p>{text}</p>
        {invite.state === "accepted" && (
          <p>
            <Link
              className="font-medium text-indigo-600 hover:underline dark:text-indigo-400"
              href={`/${invite.team.id}`}
            >
              Open {team}
            </Link>
          </p>
        )}
      </ConnectMessage>
    );
  }

  const user = await currentUser();
  const path = `/invite/${token}`;
  const heading = (
    <>
      <p className="text-sm text-zinc-500 dark:text-zinc-400">Patchbay</p>
      <h1 className="text-xl font-semibold tracking-tight">Join {team}</h1>
      <p className="mt-3 text-sm leading-6 text-zinc-600 dark:text-zinc-300">
        {invite.invitedBy ?? "An owner"} invited{" "}
        <strong className="text-zinc-900 dark:text-zinc-100">{invite.email}</strong> to join{" "}
        <strong className="text-zinc-900 dark:text-zinc-100">{team}</strong> as{" "}
        {invite.role === "owner" ? "an owner" : "a member"}.
      </p>
      {typeof error === "string" && <Alert className="mt-4">{error}</Alert>}
    </>
  );

  if (user && user.email !== invite.email) {
    return (
      <ConnectShell>
        {heading}
        <p className="mt-4 text-sm leading-6 text-zinc-600 dark:text-zinc-300">
          You are signed in as <strong>{user.email}</strong>. This invite is for {invite.email}: sign out, then open the
          link again.
        </p>
        <SignOutButton callbackUrl={path} label={`Sign out of ${user.email}`} className="btn-secondary mt-5 w-full" />
      </ConnectShell>
    );
  }
  if (user) {
    return (
      <ConnectShell>
        {heading}
        <form method="post" action={`${path}/accept`} className="mt-6">
          <button type="submit" className="btn-primary w-full">
            Join {team}
          </button>
        </form>
      </ConnectShell>
    );
  }
  if (invite.accountExists) {
    return (
      <ConnectShell>
        {heading}
        <p className="mt-4 text-sm leading-6 text-zinc-600 dark:text-zinc-300">
          {invite.email} already has a Patchbay account. Sign in as it to accept.
        </p>
        <Link href={`/sign-in?callbackUrl=${encodeURIComponent(path)}`} className="btn-primary mt-5 w-full">
          Sign in to accept
        </Link>
      </ConnectShell>
    );
  }
  return (
    <ConnectShell>
      {heading}
      <NewAccountForm token={token} email={invite.email} team={invite.team} />
    </ConnectShell>
  );
}
