import "server-only";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/errors/api-error";

/**
 * `sandbox outage --connection ID [--end]`: the sandbox provider goes down (or comes back) for the
 * account behind a sandbox connection: its API answers 503 `temporarily_unavailable`, as a real
 * provider's outage, until the outage ends.
 */
export async function sandboxOutage(
  connectionId: string,
  end: boolean,
): Promise<{ connection_id: string; account: string; down: boolean }> {
  const row = await db.connection.findUnique({ where: { id: connectionId }, select: { type: true, accountId: true } });
  if (!row) throw new ApiError(404, `No connection ${connectionId}.`);
  if (!row.type.startsWith("sandbox_") || !row.accountId)
    throw new ApiError(
      400,
      `${connectionId} is a ${row.type} connection: only a sandbox connection whose account is known can have an outage.`,
    );
  if (end) await db.sandboxOutage.deleteMany({ where: { account: row.accountId } });
  else
    await db.sandboxOutage.upsert({
      where: { account: row.accountId },
      create: { account: row.accountId },
      update: {},
    });
  return { connection_id: connectionId, account: row.accountId, down: !end };
}

/** Whether the sandbox is down for this account. */
export async function isDown(account: string): Promise<boolean> {
  return (await db.sandboxOutage.count({ where: { account } })) > 0;
}
