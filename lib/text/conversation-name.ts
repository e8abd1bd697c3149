// A conversation's title is its first message (CONTRACT §11): to a member who cannot see the
// conversation (another member's unshared one) it reaches no page, export or webhook. The logs
// and the ledger name it neutrally for them, by the conversation's owner and sharing now.

export const PRIVATE_CONVERSATION_NAME = "Private conversation";

/** The conversation fields a name depends on, as a left join reads them (null: no conversation row). */
type ConversationAccess = { conversationUserId: string | null; conversationShared: boolean | number | null };

/**
 * The name an agent source or service shows `viewerId` (null: no viewer, such as a webhook to the
 * whole team): its stored title when the viewer may read the conversation, else the neutral name.
 */
export function agentSourceName(name: string | null, access: ConversationAccess, viewerId: string | null) {
  const readable = Boolean(access.conversationShared) || (viewerId !== null && access.conversationUserId === viewerId);
  return readable ? name : PRIVATE_CONVERSATION_NAME;
}
