import "server-only";
import { sql, type Expression } from "kysely";
import type { Tx } from "@/lib/db/transaction";
import { preparedInTx, write } from "@/lib/db/write";

// What a team has promised but not yet charged: a workflow run holds 1 + what it spent so far
// while it runs or waits (lib/workflows/credit-reservation.ts), and an agent turn that has not ended holds its own
// credit and the price of each operation it ran or is running (lib/agents/turn-credits.ts). Both
// producers refuse new spending against the balance less these holds, so concurrent runs and
// turns of one team overshoot by at most one operation's price.

/** Whose holds: a team id, or a reference to the team of the query around (`holdColumns`); less the ones excluded. */
type Exclude = { teamId: string | Expression<string>; runId?: string; turnId?: string };

// Running, parked at an approval, or queued again after one: each holds what it spent so far.
const runsHeld = (a: Exclude) =>
  write
    .selectFrom("WorkflowRun")
    .select(sql<number | string | null>`SUM("reservedCredits")`.as("v"))
    .where("teamId", "=", a.teamId)
    .where("status", "in", ["running", "waiting_approval", "queued"])
    .where("reservedCredits", ">", 0)
    .$if(a.runId !== undefined, (q) => q.where("id", "!=", a.runId!));
// Each unfinished turn owes its own 1 credit beside its operations'.
const turnsHeld = (a: Exclude) =>
  write
    .selectFrom("AgentTurn")
    .select(sql<number | string>`COALESCE(SUM("operationCredits"), 0) + COUNT(*)`.as("v"))
    .where("teamId", "=", a.teamId)
    .where("status", "in", ["running", "waiting_approval"])
    .$if(a.turnId !== undefined, (q) => q.where("id", "!=", a.turnId!));

const sumHolds = preparedInTx((a: Exclude) => write.selectNoFrom([runsHeld(a).as("runs"), turnsHeld(a).as("turns")]));

/**
 * The holds of the team of a query on "Team as t", as its columns `runs` and `turns`: read with the
 * balance in one statement and so one snapshot, before every operation that costs credits
 * (lib/credits/out-of-credits.ts, lib/workflows/node-reads.ts).
 */
export const holdColumns = [
  runsHeld({ teamId: sql.ref("t.id") }).as("runs"),
  turnsHeld({ teamId: sql.ref("t.id") }).as("turns"),
];

/** heldCredits as an SQL expression, for a statement that checks the holds itself (a run's hold). */
export const heldExpression = (a: Exclude) => sql<number>`(COALESCE((${runsHeld(a)}), 0) + (${turnsHeld(a)}))`;

/** Credits held by the team's running workflow runs and unfinished agent turns, less the ones excluded. */
export async function heldCredits(tx: Tx, teamId: string, exclude: { runId?: string; turnId?: string } = {}) {
  const [held] = await sumHolds(tx, { teamId, runId: exclude.runId || undefined, turnId: exclude.turnId || undefined });
  return Number(held?.runs ?? 0) + Number(held?.turns ?? 0);
}
