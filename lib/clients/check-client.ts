import "server-only";
import { ApiError, notFound } from "@/lib/errors/api-error";
import { connectionFacts } from "@/lib/connections/connection-facts";
import { checkConnection, type HealthCheck } from "@/lib/connections/health";
import type { ClientCheckResult } from "@/lib/schemas/clients";

// Identity calls wait on providers: a few at a time keeps a client with many connections quick
// without opening one request per connection at once.
const AT_ONCE = 4;

/**
 * *Check now* for a whole client (externalId null: the No client group): runs the identity call
 * of each connection the user sees, as `connection check` does, and returns what each found. A
 * connection deleted meanwhile is left out.
 */
export async function checkClient(
  teamId: string,
  userId: string,
  externalId: string | null,
): Promise<ClientCheckResult> {
  const connections = await connectionFacts(teamId, userId, { externalId });
  if (connections.length === 0)
    throw notFound(
      externalId === null
        ? "No connection without a client in this team to check."
        : `No connection of client ${externalId.slice(0, 255)} in this team to check.`,
    );
  const checks: HealthCheck[] = [];
  const queue = connections.map((c) => c.id);
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      try {
        checks.push(await checkConnection(teamId, id));
      } catch (e) {
        if (!(e instanceof ApiError && e.status === 404)) throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, queue.length) }, worker));
  const order = new Map(connections.map((c, i) => [c.id, i]));
  return { checks: checks.sort((a, b) => order.get(a.id)! - order.get(b.id)!) };
}
