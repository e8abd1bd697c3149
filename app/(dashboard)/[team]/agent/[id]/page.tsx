import { requireUser } from "@/lib/auth/current-user";
import { ConversationView } from "@/components/agent/conversation-view";

export const metadata = { title: "Conversation · Agent · Patchbay" };

/** One conversation. The API decides who sees it (its creator, or the team once shared); 404 otherwise. */
export default async function ConversationPage({ params }: { params: Promise<{ team: string; id: string }> }) {
  const { team, id } = await params;
  const user = await requireUser(`/${team}/agent/${id}`);
  return <ConversationView teamId={team} conversationId={id} userId={user.id} />;
}
