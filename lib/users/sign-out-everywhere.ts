import "server-only";
import { transaction } from "@/lib/db/transaction";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

/**
 * Ends every session of the user, on every device and in every team, this one included: the
 * user's session epoch moves on, and a session whose epoch is older is refused on its next
 * request (lib/auth/authenticate-session.ts, lib/auth/current-user.ts). API keys and MCP
 * tokens are not sessions and keep working; they are revoked one by one.
 */
export async function signOutEverywhere(userId: string, teamId: string): Promise<{ signed_out_everywhere: true }> {
  await transaction(async (tx) => {
    await tx.user.update({ where: { id: userId }, data: { sessionEpoch: { increment: 1 } } });
    await recordAuditEvent(tx, { teamId, action: "user.sign_out_everywhere", target: { type: "user", id: userId } });
  });
  return { signed_out_everywhere: true };
}
