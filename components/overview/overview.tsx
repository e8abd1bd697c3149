"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { creditBalanceQuery, dailyUsageQuery, recentErrorsQuery } from "@/lib/queries/overview";
import { CreditGauge } from "@/components/overview/credit-gauge";
import { UsageChart } from "@/components/overview/usage-chart";
import { BurnForecastCard } from "@/components/overview/burn-forecast-card";
import { RecentErrors } from "@/components/overview/recent-errors";
import { ErrorNote, SkeletonBlock } from "@/components/overview/section-states";
import { ConnectionsAttention } from "@/components/overview/connections-attention";

function Section({
  title,
  id,
  action,
  children,
  className = "",
}: {
  title: string;
  id: string;
  action?: React.ReactNode;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={id} className={`card min-w-0 p-4 sm:p-5 ${className}`}>
      <div className="mb-4 flex items-center justify-between gap-3">
        <h2 id={id} className="text-base font-semibold">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}

export function Overview({ team }: { team: string }) {
  const balance = useQuery(creditBalanceQuery(team));
  const usage = useQuery(dailyUsageQuery(team));
  const errors = useQuery(recentErrorsQuery(team));
  const now = usage.data?.now ?? Math.floor(Date.now() / 1000);
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      <Section
        title="Connections"
        id="connections-heading"
        className="lg:col-span-3"
        action={
          <Link
            href={`/${team}/connections`}
            className="text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400"
          >
            All connections
          </Link>
        }
      >
        <ConnectionsAttention team={team} />
      </Section>
      <Section title="Credits this period" id="credits-heading" className="lg:col-span-2">
        {balance.isPending ? (
          <SkeletonBlock className="h-32" />
        ) : balance.isError ? (
          <ErrorNote what="the credit balance" error={balance.error} onRetry={() => void balance.refetch()} />
        ) : (
          <CreditGauge balance={balance.data} now={now} />
        )}
      </Section>
      <Section title="Burn-rate forecast" id="forecast-heading">
        {balance.isPending || usage.isPending ? (
          <SkeletonBlock className="h-20" />
        ) : balance.isError || usage.isError ? (
          <ErrorNote what="the forecast" error={balance.error ?? usage.error} />
        ) : (
          <BurnForecastCard balance={balance.data} usage={usage.data} />
        )}
      </Section>
      <Section
        title="Daily usage"
        id="usage-heading"
        className="lg:col-span-2"
        action={
          <Link
            href={`/${team}/ledger`}
            className="text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400"
          >
            Ledger
          </Link>
        }
      >
        {usage.isPending ? (
          <SkeletonBlock className="h-48" />
        ) : usage.isError ? (
          <ErrorNote what="daily usage" error={usage.error} onRetry={() => void usage.refetch()} />
        ) : (
          <UsageChart usage={usage.data} />
        )}
      </Section>
      <Section
        title="Recent errors"
        id="errors-heading"
        action={
          <Link
            href={`/${team}/logs?status=error`}
            className="text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400"
          >
            All errors
          </Link>
        }
      >
        {errors.isPending ? (
          <div className="space-y-2">
            <SkeletonBlock className="h-10" />
            <SkeletonBlock className="h-10" />
            <SkeletonBlock className="h-10" />
          </div>
        ) : errors.isError ? (
          <ErrorNote what="recent errors" error={errors.error} onRetry={() => void errors.refetch()} />
        ) : (
          <RecentErrors team={team} logs={errors.data.data} />
        )}
      </Section>
    </div>
  );
}
