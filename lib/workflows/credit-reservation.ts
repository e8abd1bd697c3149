import "server-only";
import { transaction } from "@/lib/db/transaction";
import { getCreditBalance } from "@/lib/credits/get-credit-balance";
import { heldCredits, heldExpression } from "@/lib/credits/held-credits";
import { sql } from "kysely";
import { preparedInTx, write } from "@/lib/db/write";
import { compiledByShape } from "@/lib/db/read";
import { runPipelined } from "@/lib/db/client";

// Credits held, not hoped for (CONTRACT §13). While a run is running or parked it holds 1 + the
// credits of its succeeded nodes against its team's balance, until its ledger entry is written. A
// run is refused when the balance less what the team's other runs hold is used up, and before
// each node or iteration that costs credits it checks the balance less every hold (its own
// included): so a team ends at most one operation's price below zero per running run.

// A write that changes nothing, to take the team row's lock before reading the holds.
const lockTeamBuild = (a: { teamId: string }) =>
  write
    .updateTable("Team")
    .set((eb) => ({ creditsUsed: eb.ref("creditsUsed") }))
    .where("id", "=", a.teamId)
    .returning(["creditsLimit", "creditsUsed", "billingPeriodEnd"]);
const lockTeam = preparedInTx(lockTeamBuild);
/**
 * The hold, taken only if the team's other holds leave room: the check and the write in one
 * statement. The room is `remaining` as the lock returned it, or (`now`) read from the team's row
 * in the statement itself, only while its billing period is open.
 */
const holdIfRoomBuild = (a: {
  runId: string;
  claims: number;
  credits: number;
  teamId: string;
  remaining?: number;
  now?: Date;
}) =>
  write
    .updateTable("WorkflowRun")
    .set({ reservedCredits: a.credits })
    .where("id", "=", a.runId)
    .where("claims", "=", a.claims)
    .where((eb) => {
      const room =
        a.remaining !== undefined
          ? sql`${a.remaining}`
          : sql`(${eb
              .selectFrom("Team")
              .select(sql<number>`"creditsLimit" - "creditsUsed"`.as("room"))
              .where("id", "=", a.teamId)
              .where("billingPeriodEnd", ">", a.now as never)})`;
      return sql<boolean>`${room} - ${heldExpression({ teamId: a.teamId, runId: a.runId })} > 0`;
    })
    .returning("id");
const holdIfRoom = preparedInTx(holdIfRoomBuild);

// BEGIN, the lock, the hold and COMMIT written at once (`runPipelined`), so the team's lock (on
// SQLite the database's) is held for the database's own work, not for two round trips to this
// process: every run of the team queues for that lock at its start, and a busy runner's round
// trips are milliseconds each. Each statement still takes its snapshot after the one before it ends, so the hold sees
// every hold committed before the lock was granted. No row (no room, a lost claim, an ended
// period): the transaction path below says why.
const lockCompiled = compiledByShape(lockTeamBuild);
const holdCompiled = compiledByShape(holdIfRoomBuild);

async function holdInOneRoundTrip(
  run: { id: string; claims: number },
  teamId: string,
  credits: number,
): Promise<boolean> {
  const [lockSql, lockValues] = lockCompiled({ teamId });
  const [holdSql, holdValues] = holdCompiled({ runId: run.id, claims: run.claims, credits, teamId, now: new Date() });
  const rows = await runPipelined([
    { sql: "BEGIN", values: [] },
    { sql: lockSql, values: lockValues },
    { sql: holdSql, values: holdValues },
    { sql: "COMMIT", values: [] },
  ]);
  return rows[2].length > 0;
}

/** The team's billing period has ended: it is rolled before a hold is taken. */
const ENDED = Symbol("period ended");

/**
 * Holds `credits` for the run, or answers why it is refused. The team row is written first in
 * the transaction, so concurrent holds of one team are taken one after another (a row lock on
 * PostgreSQL, the write lock on SQLite) and each sees the ones before it. The team's lock is held
 * for two round trips (the hold and the commit): every run of the team waits for it.
 */
export async function reserveCredits(
  teamId: string,
  run: { id: string; claims: number },
  credits: number,
  rolled = false,
): Promise<string | null> {
  // The common case in one round trip; a refusal, a lost claim or an ended period take the path below.
  if (!rolled && (await holdInOneRoundTrip(run, teamId, Math.max(1, credits)))) return null;
  const outcome = await transaction(async (tx): Promise<string | null | typeof ENDED> => {
    const [team] = await lockTeam(tx, { teamId });
    if (!team) return "This run's team no longer exists.";
    const periodEnd = Number(team.billingPeriodEnd);
    if (periodEnd <= Date.now() && !rolled) return ENDED;
    const remaining = team.creditsLimit - team.creditsUsed;
    // Conditional on the claim too: a run whose claim was lost holds nothing, and its next write fails.
    const held = await holdIfRoom(tx, {
      runId: run.id,
      claims: run.claims,
      credits: Math.max(1, credits),
      teamId,
      remaining,
    });
    if (held.length) return null;
    // Other running runs' holds, and what unfinished agent turns ran or hold (lib/agents/turn-credits.ts).
    const others = await heldCredits(tx, teamId, { runId: run.id });
    if (remaining - others > 0) return null; // the claim was lost, not the room
    const resets = new Date(Math.floor(periodEnd / 1000) * 1000).toISOString();
    return remaining <= 0
      ? `This team has no credits left (${team.creditsUsed} of ${team.creditsLimit} used this period; the balance is ${remaining}). Usage resets when the billing period ends (${resets}); an owner can change the plan before that.`
      : `This team's ${remaining} remaining credits are held by workflow runs and agent turns already under way (${others} credits at most); this run was refused rather than spend credits that are not there. Run it again once they end.`;
  });
  if (outcome !== ENDED) return outcome;
  await getCreditBalance(teamId); // rolls the ended period
  return reserveCredits(teamId, run, credits, true);
}
