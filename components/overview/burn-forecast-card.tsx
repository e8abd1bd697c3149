"use client";

import { burnForecast } from "@/lib/credits/burn-forecast";
import type { CreditBalance } from "@/lib/queries/overview";
import type { DailyUsage } from "@/lib/schemas/dashboard";
import { formatCredits } from "@/components/overview/format";
import { LocalTime } from "@/components/time/local-time";

export function BurnForecastCard({ balance, usage }: { balance: CreditBalance; usage: DailyUsage }) {
  const forecast = burnForecast({
    used: balance.credits_used,
    remaining: balance.credits_remaining,
    periodStart: usage.period_start,
    periodEnd: balance.billing_period_end ?? usage.period_end,
    now: usage.now,
  });
  const perDay =
    "perDay" in forecast ? (
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Average burn:{" "}
        <strong className="tabular-nums text-zinc-900 dark:text-zinc-100">{formatCredits(forecast.perDay)}</strong>{" "}
        credits a day so far this period.
      </p>
    ) : null;
  return (
    <div data-testid="burn-forecast" className="space-y-2">
      {forecast.kind === "exhausted" && (
        <p className="text-lg font-semibold text-rose-600 dark:text-rose-400">Credits have run out for this period.</p>
      )}
      {forecast.kind === "idle" && <p className="text-lg font-semibold">No credits used yet this period.</p>}
      {forecast.kind === "lasts" && (
        <p className="text-lg font-semibold text-emerald-700 dark:text-emerald-400">
          At this rate, credits last past the period end.
        </p>
      )}
      {forecast.kind === "runs-out" && (
        <p className="text-lg font-semibold text-amber-700 dark:text-amber-400">
          At this rate, credits run out on <LocalTime seconds={forecast.at} dateOnly />.
        </p>
      )}
      {perDay}
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        {forecast.kind === "idle"
          ? "A forecast appears once this period has usage."
          : "Forecast from this period's average daily usage; usage resets when the period ends."}
      </p>
    </div>
  );
}
