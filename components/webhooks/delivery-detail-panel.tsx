"use client";

import { useEffect, useRef } from "react";
import { usePanelKeyboard } from "@/components/ui/use-panel-keyboard";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { resendWebhookDelivery, webhookKeys } from "@/lib/queries/webhooks";
import type { WebhookAttemptJson, WebhookDeliveryJson } from "@/lib/schemas/webhooks";
import { detailText } from "@/components/overview/format";
import { LocalTime } from "@/components/time/local-time";
import { JsonView } from "@/components/logs/json-view";
import { DeliveryStatusBadge, StatusCode } from "@/components/webhooks/delivery-status-badge";
import { ScrollRegion } from "@/components/ui/scroll-region";

/**
 * One delivery in full: every attempt with the receiver's answer, the payload, and Resend.
 * The delivery comes from the loaded (and polled) log, so an attempt under way shows up here too.
 */
export function DeliveryDetailPanel({
  team,
  endpointId,
  endpointEnabled,
  delivery: d,
  onClose,
}: {
  team: string;
  endpointId: string;
  endpointEnabled: boolean;
  delivery: WebhookDeliveryJson;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const closeRef = useRef<HTMLButtonElement>(null);
  const resend = useMutation({
    mutationFn: () => resendWebhookDelivery(team, endpointId, d.id),
    onSuccess: () => client.invalidateQueries({ queryKey: webhookKeys.deliveries(team, endpointId) }),
  });
  const { reset } = resend;
  const panelRef = useRef<HTMLElement>(null);
  usePanelKeyboard(panelRef, closeRef, onClose, d.id);
  useEffect(() => reset(), [d.id, reset]);

  return (
    <aside
      ref={panelRef}
      role="dialog"
      aria-modal="true"
      aria-labelledby="delivery-detail-title"
      className="fixed inset-y-0 right-0 z-40 flex w-full flex-col border-l border-zinc-200 bg-white shadow-2xl sm:w-[32rem] dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex items-center justify-between gap-3 border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
        <h2 id="delivery-detail-title" className="truncate font-semibold">
          Delivery <span className="font-mono text-sm text-zinc-500 dark:text-zinc-400">{d.id}</span>
        </h2>
        <button
          ref={closeRef}
          type="button"
          onClick={onClose}
          className="btn-secondary px-3 py-1.5"
          aria-label="Close delivery detail"
        >
          ✕
        </button>
      </div>
      <div className="flex-1 space-y-4 overflow-y-auto p-4 text-sm">
        <dl className="grid grid-cols-[7.5rem_1fr] gap-x-3 gap-y-2">
          <dt className="text-zinc-500 dark:text-zinc-400">Status</dt>
          <dd>
            <DeliveryStatusBadge status={d.status} />
          </dd>
          <dt className="text-zinc-500 dark:text-zinc-400">Event type</dt>
          <dd className="font-mono text-xs">{d.event_type}</dd>
          <dt className="text-zinc-500 dark:text-zinc-400">Event ID</dt>
          <dd className="break-all font-mono text-xs">
            {d.event_id} <span className="font-sans text-zinc-500 dark:text-zinc-400">(the webhook-id header)</span>
          </dd>
          <dt className="text-zinc-500 dark:text-zinc-400">Created</dt>
          <dd>
            <LocalTime seconds={d.created_at / 1000} />
          </dd>
          {d.completed_at !== null && (
            <>
              <dt className="text-zinc-500 dark:text-zinc-400">{d.status === "succeeded" ? "Delivered" : "Gave up"}</dt>
              <dd>
                <LocalTime seconds={d.completed_at / 1000} />
              </dd>
            </>
          )}
          {d.next_attempt_at !== null && (
            <>
              <dt className="text-zinc-500 dark:text-zinc-400">Next attempt</dt>
              <dd>
                {endpointEnabled ? (
                  d.next_attempt_at <= Date.now() ? (
                    "now"
                  ) : (
                    <LocalTime seconds={d.next_attempt_at / 1000} />
                  )
                ) : (
                  "when the endpoint is enabled again"
                )}
              </dd>
            </>
          )}
          <dt className="text-zinc-500 dark:text-zinc-400">Attempts</dt>
          <dd className="tabular-nums">{d.attempt_count}</dd>
        </dl>

        <div className="space-y-2">
          <button
            type="button"
            className="btn-primary w-full"
            onClick={() => resend.mutate()}
            disabled={resend.isPending}
          >
            {resend.isPending ? "Resending…" : "Resend"}
          </button>
          <p className="text-xs text-zinc-500 dark:text-zinc-400">
            Sends the same event again as a new delivery, with the same webhook-id, so a receiver that already handled
            it can tell.
          </p>
          {resend.isSuccess && (
            <p role="status" className="text-xs font-medium text-emerald-700 dark:text-emerald-400">
              Resent: delivery <span className="font-mono">{resend.data.id}</span> is at the top of the log.
            </p>
          )}
          {resend.isError && (
            <p role="alert" className="text-xs text-rose-700 dark:text-rose-400">
              Could not resend: {detailText(resend.error)}
            </p>
          )}
        </div>

        <section aria-labelledby="delivery-attempts-title">
          <h3 id="delivery-attempts-title" className="mb-2 font-medium">
            Attempts
          </h3>
          {d.attempts.length === 0 ? (
            <p className="text-zinc-500 dark:text-zinc-400">
              {d.status === "delivering" ? "The first attempt is under way." : "Not attempted yet."}
            </p>
          ) : (
            <ol className="space-y-2" aria-label="Attempts">
              {[...d.attempts].reverse().map((a) => (
                <Attempt key={a.number} attempt={a} />
              ))}
            </ol>
          )}
        </section>

        <details open className="rounded-lg border border-zinc-200 dark:border-zinc-800">
          <summary className="cursor-pointer rounded-lg px-3 py-2 font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500">
            Payload
          </summary>
          <ScrollRegion
            label="Payload"
            testId="delivery-payload"
            className="border-t border-zinc-200 px-3 py-2 font-mono text-xs dark:border-zinc-800"
          >
            <JsonView value={d.payload} />
          </ScrollRegion>
        </details>
      </div>
    </aside>
  );
}

function Attempt({ attempt: a }: { attempt: WebhookAttemptJson }) {
  return (
    <li data-testid="delivery-attempt" className="rounded-lg border border-zinc-200 p-3 dark:border-zinc-800">
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <span className="font-medium">Attempt {a.number}</span>
        <span className="flex items-center gap-3 text-xs text-zinc-500 dark:text-zinc-400">
          <LocalTime seconds={a.started_at / 1000} className="tabular-nums" />
          <span className="tabular-nums">{a.duration_ms} ms</span>
          <span>
            HTTP <StatusCode code={a.status_code} />
          </span>
        </span>
      </div>
      {a.error && <p className="mt-1 wrap-anywhere text-xs text-rose-700 dark:text-rose-400">{a.error}</p>}
      {a.response_body !== null && a.response_body !== "" ? (
        <div className="mt-2">
          <p className="text-xs text-zinc-500 dark:text-zinc-400">Response body (first 1 KB)</p>
          <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap break-all rounded-md bg-zinc-50 p-2 font-mono text-xs dark:bg-zinc-950">
            {a.response_body}
          </pre>
        </div>
      ) : a.status_code !== null ? (
        <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">Empty response body.</p>
      ) : null}
    </li>
  );
}
