import "server-only";
import { prepared } from "@/lib/db/read";
import { logJsonText, selectLogs } from "@/lib/logs/log-to-json";
import { historyWindow, type TeamWindow } from "@/lib/logs/history-window";
import type { LogJson } from "@/lib/schemas/logs";

const LIMIT = 10;

type Args = { teamId: string; userId: string; from: number; externalId: string };

// The client's errors newest first, inside the plan's history window like the logs explorer's.
const ofClient = prepared((a: Args) =>
  selectLogs()
    .innerJoin("Connection as k", "k.id", "l.connectionId")
    .where("l.teamId", "=", a.teamId)
    .where("l.status", "=", "error")
    .where("l.startedAt", ">=", a.from)
    .where("k.externalId", "=", a.externalId)
    .where((eb) => eb.or([eb("k.ownerUserId", "is", null), eb("k.ownerUserId", "=", a.userId)]))
    .orderBy("l.startedAt", "desc")
    .orderBy("l.id", "desc")
    .limit(LIMIT),
);

// No client: what ran on a connection without an external_id, or on none.
const ofNoClient = prepared((a: Omit<Args, "externalId">) =>
  selectLogs()
    .leftJoin("Connection as k", "k.id", "l.connectionId")
    .where("l.teamId", "=", a.teamId)
    .where("l.status", "=", "error")
    .where("l.startedAt", ">=", a.from)
    .where((eb) =>
      eb.or([
        eb("l.connectionId", "is", null),
        eb.and([
          eb("k.id", "is not", null),
          eb("k.externalId", "is", null),
          eb.or([eb("k.ownerUserId", "is", null), eb("k.ownerUserId", "=", a.userId)]),
        ]),
      ]),
    )
    .orderBy("l.startedAt", "desc")
    .orderBy("l.id", "desc")
    .limit(LIMIT),
);

/** The last errors of a client's operations (null: the No client group), as the logs API shows them. */
export async function clientRecentErrors(
  team: TeamWindow,
  userId: string,
  externalId: string | null,
): Promise<LogJson[]> {
  const { cutoff } = historyWindow(team);
  const args = { teamId: team.id, userId, from: cutoff };
  const rows = externalId === null ? await ofNoClient(args) : await ofClient({ ...args, externalId });
  return rows.map((r) => JSON.parse(logJsonText(r, userId)) as LogJson);
}
