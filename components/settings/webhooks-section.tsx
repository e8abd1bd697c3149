"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { deleteWebhookEndpoint, webhookEndpointsQuery, webhookKeys } from "@/lib/queries/webhooks";
import type { WebhookEndpointJson } from "@/lib/schemas/webhooks";
import { detailText } from "@/components/overview/format";
import { ErrorNote, SkeletonBlock } from "@/components/overview/section-states";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useUrlFilters } from "@/components/data-table/use-url-filters";
import { Notice } from "@/components/settings/notice";
import { AddEndpointDialog, EditEndpointDialog, RotateSecretDialog } from "@/components/webhooks/endpoint-dialogs";
import { EndpointCard } from "@/components/webhooks/endpoint-card";
import { DeliveryLog } from "@/components/webhooks/delivery-log";

// The open delivery log is in the URL (?webhook=we_…), so the shell's banner can link to it;
// choosing another endpoint drops the previous one's filters.
const SELECTION_KEYS = ["webhook", "delivery_event_type", "delivery_outcome"] as const;

export function WebhooksSection({ team, role }: { team: string; role: "owner" | "member" }) {
  if (role !== "owner") {
    return (
      <Notice title="Only team owners manage webhooks" testId="webhooks-owner-notice">
        Webhook endpoints receive the team&apos;s events and their signing secrets verify them, so only owners can add,
        change and inspect them. Ask an owner of this team if you need events sent somewhere.
      </Notice>
    );
  }
  return <OwnerWebhooks team={team} />;
}

function OwnerWebhooks({ team }: { team: string }) {
  const client = useQueryClient();
  const endpoints = useQuery(webhookEndpointsQuery(team));
  const { filters, setFilters } = useUrlFilters(SELECTION_KEYS);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<WebhookEndpointJson | null>(null);
  const [rotating, setRotating] = useState<WebhookEndpointJson | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpointJson | null>(null);
  const selected = endpoints.data?.data.find((e) => e.id === filters.webhook) ?? null;
  const select = (id: string | null) => setFilters(id ? { webhook: id } : {});
  const remove = useMutation({
    mutationFn: (id: string) => deleteWebhookEndpoint(team, id),
    onSuccess: (_, id) => {
      setDeleting(null);
      if (filters.webhook === id) select(null);
      // A background refetch: it never rejects (a failure shows in the query's own state).
      void client.invalidateQueries({ queryKey: webhookKeys.endpoints(team) });
    },
  });

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Events are POSTed as JSON and signed per{" "}
          <a
            className="font-medium text-indigo-700 hover:underline dark:text-indigo-400"
            href="https://www.standardwebhooks.com/"
            target="_blank"
            rel="noreferrer"
          >
            Standard Webhooks
          </a>
          ; failed deliveries are retried with growing delays.
        </p>
        <button type="button" className="btn-primary" onClick={() => setAdding(true)}>
          Add endpoint
        </button>
      </div>
      {endpoints.isPending ? (
        <SkeletonBlock className="h-20" />
      ) : endpoints.isError ? (
        <ErrorNote what="webhook endpoints" error={endpoints.error} onRetry={() => void endpoints.refetch()} />
      ) : endpoints.data.data.length === 0 ? (
        <p
          data-testid="no-webhook-endpoints"
          className="rounded-lg border border-dashed border-zinc-300 p-4 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400"
        >
          No webhook endpoints yet. Add one with “Add endpoint” to receive connection, auth-link and credit events at
          your own URL.
        </p>
      ) : (
        <ul className="space-y-3" aria-label="Webhook endpoints">
          {endpoints.data.data.map((e) => (
            <EndpointCard
              key={e.id}
              team={team}
              endpoint={e}
              selected={selected?.id === e.id}
              onSelect={() => select(selected?.id === e.id ? null : e.id)}
              onShowLog={() => selected?.id !== e.id && select(e.id)}
              onEdit={() => setEditing(e)}
              onRotate={() => setRotating(e)}
              onDelete={() => setDeleting(e)}
            />
          ))}
        </ul>
      )}

      {selected && (
        <section
          aria-labelledby="delivery-log-heading"
          className="space-y-3 border-t border-zinc-200 pt-4 dark:border-zinc-800"
        >
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h3 id="delivery-log-heading" className="min-w-0 font-semibold [overflow-wrap:anywhere]">
              Delivery log of <span className="font-mono text-sm">{selected.url}</span>
            </h3>
            <button
              type="button"
              className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-400"
              onClick={() => select(null)}
            >
              Close log
            </button>
          </div>
          <DeliveryLog key={selected.id} team={team} endpoint={selected} />
        </section>
      )}

      <AddEndpointDialog team={team} open={adding} onClose={() => setAdding(false)} />
      <EditEndpointDialog team={team} endpoint={editing} onClose={() => setEditing(null)} />
      <RotateSecretDialog team={team} endpoint={rotating} onClose={() => setRotating(null)} />
      <ConfirmDialog
        open={!!deleting}
        title="Delete this webhook endpoint?"
        confirmLabel="Delete endpoint"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onCancel={() => {
          setDeleting(null);
          remove.reset();
        }}
      >
        <p className="break-all">
          <span className="font-mono text-xs">{deleting?.url}</span> stops receiving events. Its delivery log goes with
          it, and events not yet delivered to it are dropped. This cannot be undone.
        </p>
        {remove.isError && (
          <p role="alert" className="mt-2 text-rose-700 dark:text-rose-400">
            {detailText(remove.error)}
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}
