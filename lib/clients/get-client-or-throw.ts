import "server-only";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors/api-error";
import { connectionFacts } from "@/lib/connections/connection-facts";
import { usageGroups } from "@/lib/clients/usage";
import { billingPeriods } from "@/lib/clients/billing-periods";
import { clientDailyUsage } from "@/lib/clients/client-daily-usage";
import { clientRecentErrors } from "@/lib/clients/client-recent-errors";
import { clientKey } from "@/lib/clients/client-key";
import type { ClientDetail } from "@/lib/schemas/clients";
import type { DailyUsage } from "@/lib/schemas/dashboard";
import type { LogJson } from "@/lib/schemas/logs";

const DAY = 86_400;

/**
 * One client as the user sees it (externalId null: the No client group): its connections with
 * their health, last use and spend, the workflows that use them, its pending auth links, its
 * credits per day this billing period and its latest errors. 404 for an external_id with no
 * connection and no pending link the user sees.
 */
export async function getClientOrThrow(
  teamId: string,
  userId: string,
  externalId: string | null,
): Promise<ClientDetail & { usage: DailyUsage; recent_errors: LogJson[] }> {
  const now = Math.floor(Date.now() / 1000);
  const [facts, pending, team, periods] = await Promise.all([
    connectionFacts(teamId, userId, { externalId }),
    db.authLink.count({
      where: {
        teamId,
        externalId,
        consumedAt: null,
        expiresAt: { gt: new Date() },
        OR: [{ isPrivate: false }, { createdByUserId: userId }],
      },
    }),
    db.team.findUniqueOrThrow({ where: { id: teamId }, select: { id: true, plan: true, historyDays: true } }),
    billingPeriods(teamId, 0),
  ]);
  if (externalId !== null && facts.length === 0 && pending === 0)
    throw notFound(`No client ${externalId.slice(0, 255)} in this team: no connection or pending auth link has it.`);
  const period = periods[0];
  const ids = facts.map((f) => f.id);
  const [spend, week, usage, recentErrors, workflows] = await Promise.all([
    usageGroups(teamId, userId, { group_by: "connection_id", from: period.start, to: period.end }),
    usageGroups(teamId, userId, { group_by: "connection_id", from: now - 7 * DAY, to: now + 1 }),
    clientDailyUsage(teamId, userId, externalId, period),
    clientRecentErrors(team, userId, externalId),
    db.workflow.findMany({
      where: { teamId, connections: { some: { connection: { teamId, externalId, id: { in: ids } } } } },
      select: { id: true, name: true, active: true, connections: { select: { connectionId: true } } },
      orderBy: [{ name: "asc" }, { id: "asc" }],
      take: 200,
    }),
  ]);
  const spendOf = new Map(spend.map((g) => [g.key, g]));
  const weekOf = new Map(week.map((g) => [g.key, g]));
  const mine = new Set(ids);
  return {
    id: clientKey(externalId),
    external_id: externalId,
    connections: facts.map((f) => ({
      ...f,
      credits: spendOf.get(f.id)?.credits ?? 0,
      operations_7d: weekOf.get(f.id)?.operations ?? 0,
      errors_7d: weekOf.get(f.id)?.errors ?? 0,
    })),
    unattributed_credits: externalId === null ? (spendOf.get(null)?.credits ?? 0) : 0,
    pending_links: pending,
    workflows: workflows.map((w) => ({
      id: w.id,
      name: w.name,
      active: w.active,
      connection_ids: w.connections.map((c) => c.connectionId).filter((id) => mine.has(id)),
    })),
    usage,
    recent_errors: recentErrors,
  };
}
