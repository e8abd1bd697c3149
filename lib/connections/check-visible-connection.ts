import "server-only";
import { checkConnection } from "@/lib/connections/health";
import { visibleConnectionOrThrow } from "@/lib/connections/visible-connection-or-throw";

/** *Check now* on the connection page: the identity call of a connection the user sees, run now. */
export async function checkVisibleConnection(teamId: string, userId: string, connectionId: string) {
  await visibleConnectionOrThrow(teamId, userId, connectionId);
  return checkConnection(teamId, connectionId);
}
