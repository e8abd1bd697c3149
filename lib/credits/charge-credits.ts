import "server-only";
import type { Tx } from "@/lib/db/transaction";
import type { SERVICE_TYPES } from "@/lib/schemas/credits";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { rollBillingPeriodIfEnded } from "@/lib/credits/roll-billing-period";
import { addUsageDays, usageDay } from "@/lib/credits/usage-days";
import { dbEngine } from "@/lib/db/client";
import { runnerOf } from "@/lib/db/tx-connection";
import type { Insertable } from "kysely";
import type { ReadDb } from "@/lib/db/read-types";
import { preparedInTx, write } from "@/lib/db/write";

export type Charge = {
  teamId: string;
  credits: number;
  service: { type: (typeof SERVICE_TYPES)[number]; id: string | null; name: string | null };
  user: { id: string; email: string } | null;
  at: number; // Unix seconds
  /**
   * The workflow run charged, the one log of the call charged, or the agent turn charged: the
   * ledger links to exactly those logs.
   */
  runId?: string | null;
  logId?: string | null;
  turnId?: string | null;
  /**
   * Which connections the credits paid for (CONTRACT §12): stored with the entry, summing to its
   * credits exactly; what no portion names (or everything, when absent) goes to no connection.
   */
  attribution?: Portion[];
};

/** Credits of a charge that one connection (or none: null) used. */
export type Portion = { connectionId: string | null; credits: number };

/**
 * The rows of one entry: portions of the same connection merged, zero ones dropped, and the sum
 * made exactly the entry's credits (a shortfall or excess lands on no connection), so usage per
 * connection always adds up to the ledger.
 */
function attributionRows(credits: number, portions: Portion[] = []): Portion[] {
  const by = new Map<string | null, number>();
  for (const p of portions) by.set(p.connectionId, (by.get(p.connectionId) ?? 0) + p.credits);
  const rest = credits - [...by.values()].reduce((a, b) => a + b, 0);
  if (rest !== 0) by.set(null, (by.get(null) ?? 0) + rest);
  return [...by].filter(([, c]) => c !== 0).map(([connectionId, c]) => ({ connectionId, credits: c }));
}

/**
 * Adds one ledger entry and moves the period's usage in the same transaction. The increment's
 * returned row is the balance right after this charge, so the snapshot is exact even with
 * concurrent writers. The balance may go below zero: an overshooting run is not rolled back.
 * The first charge of a billing period that leaves the balance at or below the team's
 * threshold, or at or below zero, writes credits.low / credits.exhausted in the same transaction.
 * A charge after the period's end first rolls it (usage resets), so it counts in the new
 * period and the new period's events are armed.
 */
export async function chargeCredits(tx: Tx, charge: Charge) {
  if (dbEngine() === "postgresql") {
    const [once] = await chargeInOneStatement(tx, charge);
    if (once) {
      await emitCreditEvents(tx, charge.teamId, teamAfterCharge(once));
      return { id: Number(once.entryId) };
    }
    // The billing period has ended (or the team is gone): the steps below roll it first.
  }
  const increment = async () => {
    const [t] = await incrementUsage(tx, { teamId: charge.teamId, credits: charge.credits });
    if (!t) throw new Error(`Charging team ${charge.teamId}: the team does not exist.`);
    return teamAfterCharge(t);
  };
  let team = await increment();
  if (await rollBillingPeriodIfEnded(tx, { id: charge.teamId, billingPeriodEnd: team.billingPeriodEnd }))
    team = await increment();
  await emitCreditEvents(tx, charge.teamId, team);
  const [entry] = await insertEntry(tx, {
    teamId: charge.teamId,
    creditsUsed: charge.credits,
    creditsRemaining: team.creditsLimit - team.creditsUsed,
    serviceType: charge.service.type,
    serviceId: charge.service.id,
    serviceName: charge.service.name,
    userId: charge.user?.id ?? null,
    userEmail: charge.user?.email ?? null,
    createdAt: charge.at,
    runId: charge.runId ?? null,
    logId: charge.logId ?? null,
    turnId: charge.turnId ?? null,
  });
  const id = Number(entry.id);
  const rows = attributionRows(charge.credits, charge.attribution);
  for (const r of rows)
    await insertPortion(tx, { ...r, teamId: charge.teamId, ledgerEntryId: id, createdAt: charge.at });
  await addUsageDays(tx, charge.teamId, charge.service.type, charge.at, rows);
  return { id };
}

/** The team's row as a charge's increment returned it, instants as milliseconds. */
type TeamRow = Omit<TeamAfterCharge, "billingPeriodEnd" | "creditsLowSentFor" | "creditsExhaustedSentFor"> & {
  billingPeriodEnd: number;
  creditsLowSentFor: number | null;
  creditsExhaustedSentFor: number | null;
};
const teamAfterCharge = (t: TeamRow): TeamAfterCharge => {
  const at = (v: number | null) => (v === null ? null : new Date(v));
  return {
    ...t,
    billingPeriodEnd: new Date(t.billingPeriodEnd),
    creditsLowSentFor: at(t.creditsLowSentFor),
    creditsExhaustedSentFor: at(t.creditsExhaustedSentFor),
  };
};

// PostgreSQL: the common charge in one statement. The team's usage is moved (its row locked from
// there to the commit), the ledger entry written with the balance right after it, then its
// attribution rows and the days' rollup. As five statements this held the team's lock for five
// round trips, and every workflow run of the team waits for that lock twice (its hold, its
// charge): at the top of the hour it set the pace of the team's runs. Only while the billing
// period is open; else it writes nothing and returns no row.

/**
 * The charge's data-modifying WITH queries ("t": the team after it, "e": its ledger entry, then
 * its attribution rows and the days' rollup), their parameters numbered from `first`. `quiet`:
 * only while the balance after it stays above zero and above the team's low-credits threshold, so
 * that no credits event can be due (a workflow run's end sends it with its other writes, in one
 * statement: lib/workflows/run-workflow.ts); else "t" and "e" are empty and nothing is written.
 */
export function chargeQueries(charge: Charge, { quiet = false, first = 1 } = {}) {
  const $ = (k: number) => `$${first + k - 1}`;
  // In bigint: a limit of a billion credits times 100 is past integer's range.
  const after = `("creditsLimit"::bigint - "creditsUsed" - ${$(2)}::integer)`;
  const ctes = `"t" AS (
  UPDATE "Team" SET "creditsUsed" = "creditsUsed" + ${$(2)}::integer
  WHERE "id" = ${$(1)} AND "billingPeriodEnd" > ${$(3)}::timestamp${quiet ? ` AND ${after} > 0 AND ${after} * 100 > "creditsLimit"::bigint * "lowCreditsPercent"` : ""}
  RETURNING "creditsLimit", "creditsUsed", "plan", "billingPeriodEnd", "lowCreditsPercent", "creditsLowSentFor", "creditsExhaustedSentFor"
), "e" AS (
  INSERT INTO "CreditLedgerEntry" ("teamId", "creditsUsed", "creditsRemaining", "serviceType", "serviceId", "serviceName",
    "userId", "userEmail", "createdAt", "runId", "logId", "turnId")
  SELECT ${$(1)}, ${$(2)}::integer, "t"."creditsLimit" - "t"."creditsUsed", ${$(4)}::text, ${$(5)}::text, ${$(6)}::text,
    ${$(7)}::text, ${$(8)}::text, ${$(9)}::bigint, ${$(10)}::text, ${$(11)}::text, ${$(12)}::text FROM "t"
  RETURNING "id"
), "p" AS (
  SELECT * FROM json_to_recordset(${$(13)}::json) AS "p"("connectionId" text, "credits" integer)
), "a" AS (
  INSERT INTO "UsageAttribution" ("connectionId", "credits", "teamId", "ledgerEntryId", "createdAt")
  SELECT "p"."connectionId", "p"."credits", ${$(1)}, "e"."id", ${$(9)}::bigint FROM "e", "p"
), "d" AS (
  INSERT INTO "UsageDay" ("teamId", "day", "serviceType", "connectionId", "credits")
  SELECT ${$(1)}, ${$(14)}::integer, ${$(4)}::text, COALESCE("p"."connectionId", ''), "p"."credits" FROM "t", "p"
  ON CONFLICT ("teamId", "day", "serviceType", "connectionId") DO UPDATE SET "credits" = "UsageDay"."credits" + excluded."credits"
)`;
  const values = [
    charge.teamId,
    charge.credits,
    new Date().toISOString(),
    charge.service.type,
    charge.service.id,
    charge.service.name,
    charge.user?.id ?? null,
    charge.user?.email ?? null,
    charge.at,
    charge.runId ?? null,
    charge.logId ?? null,
    charge.turnId ?? null,
    JSON.stringify(attributionRows(charge.credits, charge.attribution)),
    usageDay(charge.at),
  ];
  return { ctes, values };
}

async function chargeInOneStatement(tx: Tx, charge: Charge) {
  const { ctes, values } = chargeQueries(charge);
  return (await runnerOf(tx)(`WITH ${ctes} SELECT "t".*, "e"."id" AS "entryId" FROM "t", "e"`, values)) as (TeamRow & {
    entryId: number | string;
  })[];
}

const incrementUsage = preparedInTx((a: { teamId: string; credits: number }) =>
  write
    .updateTable("Team")
    .set((eb) => ({ creditsUsed: eb("creditsUsed", "+", a.credits) }))
    .where("id", "=", a.teamId)
    .returning([
      "creditsLimit",
      "creditsUsed",
      "plan",
      "billingPeriodEnd",
      "lowCreditsPercent",
      "creditsLowSentFor",
      "creditsExhaustedSentFor",
    ]),
);
const insertEntry = preparedInTx((e: Insertable<ReadDb["CreditLedgerEntry"]>) =>
  write.insertInto("CreditLedgerEntry").values(e).returning("id"),
);
const insertPortion = preparedInTx((p: Insertable<ReadDb["UsageAttribution"]>) =>
  write.insertInto("UsageAttribution").values(p),
);

type TeamAfterCharge = {
  creditsLimit: number;
  creditsUsed: number;
  plan: string;
  billingPeriodEnd: Date;
  lowCreditsPercent: number;
  creditsLowSentFor: Date | null;
  creditsExhaustedSentFor: Date | null;
};

/** CONTRACT §6: each of the two fires once per billing period (the period's end marks it sent); low first. */
async function emitCreditEvents(tx: Tx, teamId: string, team: TeamAfterCharge) {
  const remaining = team.creditsLimit - team.creditsUsed;
  const period = team.billingPeriodEnd.getTime();
  const low =
    remaining * 100 <= team.creditsLimit * team.lowCreditsPercent && team.creditsLowSentFor?.getTime() !== period;
  const exhausted = remaining <= 0 && team.creditsExhaustedSentFor?.getTime() !== period;
  if (!low && !exhausted) return;
  await tx.team.update({
    where: { id: teamId },
    data: {
      ...(low && { creditsLowSentFor: team.billingPeriodEnd }),
      ...(exhausted && { creditsExhaustedSentFor: team.billingPeriodEnd }),
    },
  });
  const data = {
    balance: {
      credits_limit: team.creditsLimit,
      credits_used: team.creditsUsed,
      credits_remaining: remaining,
      billing_period_end: Math.floor(period / 1000),
      tier: team.plan,
    },
    low_credits_percent: team.lowCreditsPercent,
  };
  if (low) await emitWebhookEvent(tx, teamId, "credits.low", data);
  if (exhausted) await emitWebhookEvent(tx, teamId, "credits.exhausted", data);
}
