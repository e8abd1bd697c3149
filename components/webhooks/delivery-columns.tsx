"use client";

import { createColumnHelper } from "@tanstack/react-table";
import type { WebhookDeliveryJson } from "@/lib/schemas/webhooks";
import { LocalTime } from "@/components/time/local-time";
import { DeliveryStatusBadge, StatusCode } from "@/components/webhooks/delivery-status-badge";

const col = createColumnHelper<WebhookDeliveryJson>();

export const DELIVERY_COLUMNS_TEMPLATE = "10.5rem minmax(9rem,1fr) minmax(11rem,1.3fr) 6.5rem 5rem 6rem";

/** The last attempt's answer: its status code, or why there was none. */
const lastAttempt = (d: WebhookDeliveryJson) => d.attempts.at(-1) ?? null;

export const deliveryColumns = [
  col.accessor("created_at", {
    header: "Time",
    cell: (c) => <LocalTime seconds={c.getValue() / 1000} className="tabular-nums text-zinc-600 dark:text-zinc-400" />,
  }),
  col.accessor("event_type", {
    header: "Event type",
    cell: (c) => <span className="font-mono text-xs text-zinc-900 dark:text-zinc-100">{c.getValue()}</span>,
  }),
  col.accessor("event_id", {
    header: "Event ID",
    cell: (c) => <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{c.getValue()}</span>,
  }),
  col.accessor("status", { header: "Status", cell: (c) => <DeliveryStatusBadge status={c.getValue()} /> }),
  col.accessor("attempt_count", {
    header: "Attempts",
    cell: (c) => <span className="tabular-nums">{c.getValue()}</span>,
  }),
  col.accessor((d) => lastAttempt(d)?.status_code ?? null, {
    id: "last_status",
    header: "Last status",
    cell: (c) => {
      const attempt = lastAttempt(c.row.original);
      if (attempt && attempt.status_code === null)
        return (
          <span className="text-xs text-rose-700 dark:text-rose-400" title={attempt.error ?? undefined}>
            no answer
          </span>
        );
      return <StatusCode code={c.getValue()} />;
    },
  }),
];
