"use client";

import { useEffect, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { setLowCreditsPercent, teamSettingsQuery, webhookKeys } from "@/lib/queries/webhooks";
import { detailText } from "@/components/overview/format";
import { ErrorNote, SkeletonBlock } from "@/components/overview/section-states";

/** The credits.low threshold: owners change it, members see it. */
export function LowCreditsSetting({ team, role }: { team: string; role: "owner" | "member" }) {
  const client = useQueryClient();
  const settings = useQuery(teamSettingsQuery(team));
  const [value, setValue] = useState("");
  const saved = settings.data?.low_credits_percent;
  useEffect(() => {
    if (saved !== undefined) setValue(String(saved));
  }, [saved]);
  const save = useMutation({
    mutationFn: (percent: number) => setLowCreditsPercent(team, percent),
    onSuccess: ({ low_credits_percent, forbid_self_approval }) =>
      client.setQueryData(webhookKeys.teamSettings(team), { low_credits_percent, forbid_self_approval }),
  });
  const explanation = (
    <p className="text-sm text-zinc-600 dark:text-zinc-400">
      The <code className="font-mono text-xs">credits.low</code> webhook event is sent once per billing period, when a
      charge leaves at most this percentage of the team&apos;s credit limit. At 0 % it comes together with{" "}
      <code className="font-mono text-xs">credits.exhausted</code>.
    </p>
  );

  if (settings.isPending) return <SkeletonBlock className="h-16" />;
  if (settings.isError)
    return (
      <ErrorNote what="the low-credits threshold" error={settings.error} onRetry={() => void settings.refetch()} />
    );
  if (role !== "owner") {
    return (
      <div className="space-y-2">
        <p className="text-sm">
          Threshold: <strong data-testid="low-credits-percent">{settings.data.low_credits_percent} %</strong> of the
          credit limit. Only team owners change it.
        </p>
        {explanation}
      </div>
    );
  }
  const percent = Number(value);
  const valid = value.trim() !== "" && Number.isInteger(percent) && percent >= 0 && percent <= 100;
  return (
    <div className="space-y-3">
      {explanation}
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) save.mutate(percent);
        }}
      >
        <label className="block text-sm">
          <span className="font-medium">Low-credits threshold</span>
          <span className="mt-1 flex items-center gap-2">
            <input
              type="number"
              className="input w-24 tabular-nums"
              min={0}
              max={100}
              step={1}
              value={value}
              onChange={(e) => {
                setValue(e.target.value);
                save.reset();
              }}
              aria-describedby="low-credits-unit"
            />
            <span id="low-credits-unit" className="text-zinc-600 dark:text-zinc-400">
              % of the limit
            </span>
          </span>
        </label>
        <button type="submit" className="btn-secondary" disabled={!valid || save.isPending || percent === saved}>
          {save.isPending ? "Saving…" : "Save threshold"}
        </button>
        <p aria-live="polite" className="text-sm text-emerald-700 dark:text-emerald-400">
          {save.isSuccess ? `Saved: credits.low fires at ${save.data.low_credits_percent} % or less.` : ""}
        </p>
      </form>
      {!valid && value.trim() !== "" && (
        <p className="text-sm text-rose-700 dark:text-rose-400">Enter a whole number from 0 to 100.</p>
      )}
      {save.isError && (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-400">
          Could not save the threshold: {detailText(save.error)}
        </p>
      )}
    </div>
  );
}
