"use client";

import type { CreditBalance } from "@/lib/queries/overview";
import { formatCredits, formatShare } from "@/components/overview/format";
import { plural } from "@/lib/text/plural";
import { LocalTime } from "@/components/time/local-time";

/**
 * Used of limit as a meter, with remaining and the days left in the period. A negative balance
 * is shown as it is: the bar full and red, remaining below zero, and by how much.
 */
export function CreditGauge({ balance, now }: { balance: CreditBalance; now: number }) {
  const { credits_limit: limit, credits_used: used, credits_remaining: remaining, billing_period_end: end } = balance;
  const over = remaining < 0;
  const share = limit > 0 ? used / limit : used > 0 ? 1 : 0;
  const percent = formatShare(used, limit);
  const daysLeft = end ? Math.max(0, Math.ceil((end - now) / 86_400)) : null;
  const tone = over ? "bg-rose-600" : share >= 0.9 ? "bg-amber-500" : "bg-indigo-600";
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          <span
            data-testid="credits-used"
            className="text-2xl font-semibold tabular-nums text-zinc-900 dark:text-zinc-50"
          >
            {formatCredits(used)}
          </span>{" "}
          used of{" "}
          <span data-testid="credits-limit" className="font-medium tabular-nums text-zinc-900 dark:text-zinc-100">
            {formatCredits(limit)}
          </span>
        </p>
        <span className="rounded-full bg-zinc-100 px-2 py-0.5 text-xs font-medium text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
          {balance.tier.charAt(0).toUpperCase() + balance.tier.slice(1)} plan
        </span>
      </div>
      <div
        role="meter"
        aria-label="Credits used this period"
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={Math.min(used, limit)}
        aria-valuetext={`${formatCredits(used)} of ${formatCredits(limit)} credits used (${percent})`}
        className="h-3 overflow-hidden rounded-full bg-zinc-100 dark:bg-zinc-800"
      >
        <div
          className={`h-full rounded-full ${tone}`}
          style={{ width: `${used > 0 ? Math.min(100, Math.max(1, share * 100)) : 0}%` }}
        />
      </div>
      <dl className="grid grid-cols-2 gap-4 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-zinc-500 dark:text-zinc-400">Remaining</dt>
          <dd
            data-testid="credits-remaining"
            className={`text-lg font-semibold tabular-nums ${over ? "text-rose-600 dark:text-rose-400" : ""}`}
          >
            {formatCredits(remaining)}
          </dd>
        </div>
        <div>
          <dt className="text-zinc-500 dark:text-zinc-400">Used</dt>
          <dd
            data-testid="credits-used-share"
            className={`text-lg font-semibold tabular-nums ${over ? "text-rose-600 dark:text-rose-400" : ""}`}
          >
            {percent}
          </dd>
        </div>
        <div className="col-span-2 sm:col-span-1">
          <dt className="text-zinc-500 dark:text-zinc-400">Period ends</dt>
          <dd className="text-lg font-semibold" data-testid="days-left">
            {daysLeft === null ? "—" : `in ${plural(daysLeft, "day")}`}
          </dd>
          {end ? (
            <dd className="text-xs text-zinc-500 dark:text-zinc-400">
              <LocalTime seconds={end} dateOnly />
            </dd>
          ) : null}
        </div>
      </dl>
      {over && (
        <p
          data-testid="over-limit"
          className="rounded-lg border border-rose-200 bg-rose-50 p-3 text-sm text-rose-800 dark:border-rose-900 dark:bg-rose-950/60 dark:text-rose-200"
        >
          Over the limit by <strong className="tabular-nums">{formatCredits(-remaining)}</strong> credits. Runs that
          overshoot are not rolled back; usage resets when the period ends.
        </p>
      )}
    </div>
  );
}
