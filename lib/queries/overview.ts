"use client";

import { queryOptions } from "@tanstack/react-query";
import { apiFetch } from "@/lib/queries/api-client";
import type { DailyUsage } from "@/lib/schemas/dashboard";
import type { LogJson } from "@/lib/schemas/logs";

export type CreditBalance = {
  credits_limit: number;
  credits_used: number;
  credits_remaining: number;
  billing_period_end?: number | null;
  tier: string;
};

const overviewKeys = {
  balance: (teamId: string) => [teamId, "credits", "balance"] as const,
  dailyUsage: (teamId: string) => [teamId, "credits", "daily-usage"] as const,
  recentErrors: (teamId: string) => [teamId, "logs", "recent-errors"] as const,
};

export const creditBalanceQuery = (teamId: string) =>
  queryOptions({
    queryKey: overviewKeys.balance(teamId),
    queryFn: () => apiFetch<CreditBalance>(teamId, "/v1/credits"),
  });

export const dailyUsageQuery = (teamId: string) =>
  queryOptions({
    queryKey: overviewKeys.dailyUsage(teamId),
    queryFn: () => apiFetch<DailyUsage>(teamId, "/api/dashboard/usage"),
  });

export const recentErrorsQuery = (teamId: string) =>
  queryOptions({
    queryKey: overviewKeys.recentErrors(teamId),
    queryFn: () => apiFetch<{ data: LogJson[]; has_more: boolean }>(teamId, "/v1/logs?status=error&limit=5"),
  });
