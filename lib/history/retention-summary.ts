import "server-only";
import { db } from "@/lib/db/client";
import { databaseTarget } from "@/lib/db/engine";
import {
  ledgerRetentionDays,
  logRetentionDays,
  partitionInterval,
  type PartitionInterval,
} from "@/lib/config/retention";
import { historyDaysOf } from "@/lib/teams/plans";

/** What a team's history keeps and for how long: the Settings page's "Data retention" card. */
export type RetentionSummary = {
  /** LOG_RETENTION_DAYS: operation logs older than this are deleted. */
  logDays: number;
  /** LEDGER_RETENTION_DAYS, or null: the ledger and its usage attribution are kept for good. */
  ledgerDays: number | null;
  /** The team's history window: how far back the API and the dashboard show logs. */
  historyDays: number;
  plan: string;
  /** Whether the team's window is its own rather than its plan's default. */
  customWindow: boolean;
  /** PostgreSQL: the span of one partition, which retention drops whole; null on SQLite (batched deletes). */
  partition: PartitionInterval | null;
};

export async function retentionSummary(teamId: string): Promise<RetentionSummary> {
  const team = await db.team.findUniqueOrThrow({ where: { id: teamId }, select: { plan: true, historyDays: true } });
  return {
    logDays: logRetentionDays(),
    ledgerDays: ledgerRetentionDays(),
    historyDays: historyDaysOf(team),
    plan: team.plan,
    customWindow: team.historyDays !== null,
    partition: databaseTarget().engine === "postgresql" ? partitionInterval() : null,
  };
}
