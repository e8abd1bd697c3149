"use client";

import { useEffect, useMemo, useRef } from "react";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { isOpenDelivery, webhookDeliveriesQuery, webhookKeys, type DeliveryFilters } from "@/lib/queries/webhooks";
import { DELIVERY_OUTCOMES, type WebhookDeliveryJson, type WebhookEndpointJson } from "@/lib/schemas/webhooks";
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT } from "@/lib/schemas/webhook-event-types";
import { DataTable } from "@/components/data-table/data-table";
import { EmptyState } from "@/components/data-table/empty-state";
import { FilterSelect } from "@/components/data-table/filter-controls";
import { useUrlFilters } from "@/components/data-table/use-url-filters";
import { useRowDetail } from "@/components/data-table/use-row-detail";
import { DELIVERY_COLUMNS_TEMPLATE, deliveryColumns } from "@/components/webhooks/delivery-columns";
import { DeliveryDetailPanel } from "@/components/webhooks/delivery-detail-panel";

const DELIVERY_FILTER_KEYS = ["delivery_event_type", "delivery_outcome"] as const;
const EVENT_TYPE_OPTIONS = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT];

/** One endpoint's deliveries: filters in the URL, the virtualized infinite table, a detail panel. */
export function DeliveryLog({ team, endpoint }: { team: string; endpoint: WebhookEndpointJson }) {
  const client = useQueryClient();
  const { filters: urlFilters, setFilters, setFilter } = useUrlFilters(DELIVERY_FILTER_KEYS);
  const filters: DeliveryFilters = useMemo(
    () => ({
      event_type: EVENT_TYPE_OPTIONS.find((t) => t === urlFilters.delivery_event_type),
      outcome: DELIVERY_OUTCOMES.find((o) => o === urlFilters.delivery_outcome),
    }),
    [urlFilters.delivery_event_type, urlFilters.delivery_outcome],
  );
  const query = useInfiniteQuery(webhookDeliveriesQuery(team, endpoint.id, filters, endpoint.enabled));
  const rows = useMemo(() => query.data?.pages.flatMap((p) => p.data) ?? [], [query.data]);
  const { openId, open: openDelivery, close, returnFocus } = useRowDetail();
  const open = rows.find((d) => d.id === openId) ?? null;
  const filtered = !!(filters.event_type || filters.outcome);

  // A delivery that finished moves the endpoint's "failing since": refresh the list when one does.
  const openCount = rows.filter(isOpenDelivery).length;
  const previousOpen = useRef(openCount);
  useEffect(() => {
    // A background refetch: it never rejects (a failure shows in the query's own state).
    if (openCount < previousOpen.current) void client.invalidateQueries({ queryKey: webhookKeys.endpoints(team) });
    previousOpen.current = openCount;
  }, [openCount, client, team]);

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-full sm:w-56">
          <FilterSelect
            label="Event type"
            value={filters.event_type}
            options={EVENT_TYPE_OPTIONS}
            onChange={(v) => setFilter("delivery_event_type", v)}
          />
        </div>
        <div className="w-full sm:w-44">
          <FilterSelect
            label="Outcome"
            value={filters.outcome}
            options={DELIVERY_OUTCOMES}
            onChange={(v) => setFilter("delivery_outcome", v)}
          />
        </div>
        {filtered && (
          <button type="button" className="btn-secondary px-3 py-1.5" onClick={() => setFilters({})}>
            Clear filters
          </button>
        )}
        <p className="ml-auto text-xs text-zinc-500 dark:text-zinc-400" aria-live="polite">
          {!endpoint.enabled
            ? "Endpoint disabled: pending deliveries wait until it is enabled."
            : openCount > 0
              ? "Updating while deliveries are pending…"
              : null}
        </p>
      </div>
      <DataTable<WebhookDeliveryJson>
        key={JSON.stringify(filters)}
        label="Deliveries"
        data={rows}
        columns={deliveryColumns}
        template={DELIVERY_COLUMNS_TEMPLATE}
        heightClass="max-h-[26rem]"
        getRowId={(d) => d.id}
        isLoading={query.isPending}
        error={query.error}
        refetch={query.refetch}
        hasNextPage={query.hasNextPage}
        isFetchingNextPage={query.isFetchingNextPage}
        fetchNextPage={query.fetchNextPage}
        onRowClick={openDelivery}
        isSelected={(d) => d.id === openId}
        focusRowId={returnFocus}
        empty={
          <EmptyState title={filtered ? "No deliveries match these filters" : "No deliveries yet"}>
            {filtered ? (
              <p>Loosen or clear the filters.</p>
            ) : (
              <p>Events this endpoint subscribes to appear here as they are sent. “Send test event” sends one now.</p>
            )}
          </EmptyState>
        }
      />
      {open && (
        <DeliveryDetailPanel
          team={team}
          endpointId={endpoint.id}
          endpointEnabled={endpoint.enabled}
          delivery={open}
          onClose={close}
        />
      )}
    </div>
  );
}
