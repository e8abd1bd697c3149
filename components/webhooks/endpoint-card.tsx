"use client";

import { Switch } from "@/components/ui/switch";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { sendWebhookTestEvent, updateWebhookEndpoint, webhookKeys } from "@/lib/queries/webhooks";
import type { WebhookEndpointJson } from "@/lib/schemas/webhooks";
import { detailText } from "@/components/overview/format";
import { LocalTime } from "@/components/time/local-time";

const linkButton =
  "font-medium text-indigo-700 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-60 dark:text-indigo-400";

/** One endpoint: where it sends, what it receives, its state, and what an owner can do with it. */
export function EndpointCard({
  team,
  endpoint: e,
  selected,
  onSelect,
  onShowLog,
  onEdit,
  onRotate,
  onDelete,
}: {
  team: string;
  endpoint: WebhookEndpointJson;
  selected: boolean;
  onSelect: () => void;
  onShowLog: () => void;
  onEdit: () => void;
  onRotate: () => void;
  onDelete: () => void;
}) {
  const client = useQueryClient();
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => updateWebhookEndpoint(team, e.id, { enabled }),
    onSuccess: (updated) => {
      client.setQueryData(
        webhookKeys.endpoints(team),
        (old: { data: WebhookEndpointJson[] } | undefined) =>
          old && { data: old.data.map((x) => (x.id === updated.id ? updated : x)) },
      );
      // A background refetch: it never rejects (a failure shows in the query's own state).
      void client.invalidateQueries({ queryKey: webhookKeys.all(team) });
    },
  });
  const test = useMutation({
    mutationFn: () => sendWebhookTestEvent(team, e.id),
    onSuccess: () => {
      onShowLog();
      // A background refetch: it never rejects (a failure shows in the query's own state).
      void client.invalidateQueries({ queryKey: webhookKeys.deliveries(team, e.id) });
    },
  });
  const enabled = toggle.isPending ? toggle.variables : e.enabled;
  const allEvents = e.events.includes("*");

  return (
    <li
      data-testid="webhook-endpoint"
      data-endpoint-id={e.id}
      aria-label={e.url}
      className={`rounded-lg border p-3 text-sm sm:p-4 ${selected ? "border-indigo-400 ring-1 ring-indigo-400/40 dark:border-indigo-500" : "border-zinc-200 dark:border-zinc-800"}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <h3 className="font-mono text-sm font-semibold [overflow-wrap:anywhere]">{e.url}</h3>
          {e.description && <p className="mt-0.5 text-zinc-600 dark:text-zinc-400">{e.description}</p>}
        </div>
        <div className="flex items-center gap-3">
          <span
            data-testid="endpoint-state"
            className={`rounded-full px-2 py-0.5 text-xs font-medium ${e.enabled ? "bg-emerald-50 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300" : "bg-rose-50 text-rose-700 dark:bg-rose-950 dark:text-rose-300"}`}
          >
            {e.enabled ? "Enabled" : "Disabled"}
          </span>
          <label className="flex cursor-pointer items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
            <Switch
              checked={enabled}
              disabled={toggle.isPending}
              onChange={(checked) => toggle.mutate(checked)}
              aria-label={`Deliver to ${e.url}`}
            />
            <span aria-hidden>{enabled ? "On" : "Off"}</span>
          </label>
        </div>
      </div>

      <div className="mt-2">
        {allEvents ? (
          <span className="text-xs text-zinc-600 dark:text-zinc-400">All events</span>
        ) : (
          <ul className="flex flex-wrap gap-1.5" aria-label={`Event types ${e.url} receives`}>
            {e.events.map((t) => (
              <li
                key={t}
                className="rounded-full border border-zinc-200 px-2 py-0.5 font-mono text-[11px] text-zinc-700 dark:border-zinc-700 dark:text-zinc-300"
              >
                {t}
              </li>
            ))}
          </ul>
        )}
      </div>

      {(e.disabled_reason || e.failing_since !== null || e.previous_secret_expires_at !== null) && (
        <div className="mt-2 space-y-1 text-xs">
          {!e.enabled && e.disabled_reason && (
            <p className="text-rose-700 dark:text-rose-400">Disabled: {e.disabled_reason}</p>
          )}
          {e.failing_since !== null && (
            <p className="text-amber-700 dark:text-amber-300">
              Failing since <LocalTime seconds={e.failing_since / 1000} />: every attempt since then has failed; after 3
              days the endpoint is disabled.
            </p>
          )}
          {e.previous_secret_expires_at !== null && (
            <p className="text-zinc-500 dark:text-zinc-400">
              Secret rotated: the previous secret also signs until{" "}
              <LocalTime seconds={e.previous_secret_expires_at / 1000} />.
            </p>
          )}
        </div>
      )}

      <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2 border-t border-zinc-100 pt-3 dark:border-zinc-800">
        <button
          type="button"
          className={linkButton}
          aria-pressed={selected}
          onClick={onSelect}
          aria-label={`Delivery log of ${e.url}`}
        >
          {selected ? "Hide delivery log" : "Delivery log"}
        </button>
        <button
          type="button"
          className={linkButton}
          onClick={() => test.mutate()}
          disabled={test.isPending}
          aria-label={`Send test event to ${e.url}`}
        >
          {test.isPending ? "Sending…" : "Send test event"}
        </button>
        <button type="button" className={linkButton} onClick={onEdit} aria-label={`Edit ${e.url}`}>
          Edit
        </button>
        <button type="button" className={linkButton} onClick={onRotate} aria-label={`Rotate secret of ${e.url}`}>
          Rotate secret
        </button>
        <button
          type="button"
          className="font-medium text-rose-700 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-rose-600 dark:text-rose-400"
          onClick={onDelete}
          aria-label={`Delete ${e.url}`}
        >
          Delete
        </button>
      </div>
      {test.isSuccess && (
        <p role="status" className="mt-2 text-xs text-emerald-700 dark:text-emerald-400">
          Test event <span className="font-mono">{test.data.event_id}</span> queued
          {e.enabled
            ? "; its delivery is in the log below."
            : ", but the endpoint is disabled: it is sent once you enable it."}
        </p>
      )}
      {(test.isError || toggle.isError) && (
        <p role="alert" className="mt-2 text-xs text-rose-700 dark:text-rose-400">
          {test.isError
            ? `Could not send a test event: ${detailText(test.error)}`
            : `Could not ${toggle.variables ? "enable" : "disable"} the endpoint: ${detailText(toggle.error)}`}
        </p>
      )}
    </li>
  );
}
