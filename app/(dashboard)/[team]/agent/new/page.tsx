import Link from "next/link";
import { NewConversation } from "@/components/agent/new-conversation";

export const metadata = { title: "New conversation · Agent · Patchbay" };

// The layout has already checked that the signed-in user belongs to this team; the API checks
// that the connections picked are ones the member sees.
export default async function NewConversationPage({ params }: { params: Promise<{ team: string }> }) {
  const { team } = await params;
  return (
    <div className="max-w-3xl space-y-4">
      <div className="space-y-2">
        <Link
          href={`/${team}/agent`}
          className="text-sm font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
        >
          ← Agent
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight">New conversation</h1>
      </div>
      <NewConversation teamId={team} />
    </div>
  );
}
