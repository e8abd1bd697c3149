import Link from "next/link";
import { Suspense } from "react";
import { requireUser } from "@/lib/auth/current-user";
import { ConversationList } from "@/components/agent/conversation-list";

export const metadata = { title: "Agent · Patchbay" };

// The layout has already checked that the signed-in user belongs to this team. A member sees their
// own conversations and the ones teammates shared.
export default async function AgentPage({ params }: { params: Promise<{ team: string }> }) {
  const { team } = await params;
  const user = await requireUser(`/${team}/agent`);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0 max-w-3xl">
          <h1 className="text-2xl font-semibold tracking-tight">Agent</h1>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Ask in plain words about the team&apos;s connected accounts. The agent runs on your team&apos;s model
            connection, reads through the operations catalogue, and asks a person before it writes anything.
          </p>
        </div>
        <Link href={`/${team}/agent/new`} className="btn-primary">
          New conversation
        </Link>
      </div>
      <Suspense>
        <ConversationList teamId={team} userId={user.id} />
      </Suspense>
    </div>
  );
}
