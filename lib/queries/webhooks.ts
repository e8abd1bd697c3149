"use client";

import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { apiFetch } from "@/lib/queries/api-client";
import { retryUnlessClientError } from "@/lib/queries/retry";
import type { WebhookDeliveryJson, WebhookEndpointJson } from "@/lib/schemas/webhooks";

// Settings → Webhooks (owners only) and the team's low-credits threshold.

export type DeliveryFilters = { event_type?: string; outcome?: string };
export type CreatedWebhookEndpoint = WebhookEndpointJson & { secret: string };
export type WebhookEndpointInput = { url: string; description?: string; events?: string[] };
/** `events: null` subscribes to every type, including ones added later. */
export type WebhookEndpointPatch = {
  url?: string;
  description?: string | null;
  events?: string[] | null;
  enabled?: boolean;
};

type Page<T> = { data: T[]; has_more: boolean; next_cursor: string | null };

const DELIVERIES_PAGE_SIZE = 50;

export const webhookKeys = {
  all: (teamId: string) => [teamId, "webhooks"] as const,
  endpoints: (teamId: string) => [teamId, "webhooks", "endpoints"] as const,
  deliveries: (teamId: string, endpointId: string) => [teamId, "webhooks", "deliveries", endpointId] as const,
  deliveriesInfinite: (teamId: string, endpointId: string, filters: DeliveryFilters) =>
    [teamId, "webhooks", "deliveries", endpointId, "infinite", filters] as const,
  teamSettings: (teamId: string) => [teamId, "team-settings"] as const,
};

const endpointPath = (id: string) => `/api/dashboard/webhooks/${encodeURIComponent(id)}`;

/** Every endpoint with its state: shared by the settings section and the shell's disabled-endpoint banner. */
export const webhookEndpointsQuery = (teamId: string) =>
  queryOptions({
    queryKey: webhookKeys.endpoints(teamId),
    queryFn: ({ signal }) => apiFetch<{ data: WebhookEndpointJson[] }>(teamId, "/api/dashboard/webhooks", { signal }),
    retry: retryUnlessClientError,
  });

/** An open delivery that the dispatcher will attempt (a disabled endpoint's wait until it is enabled). */
export const isOpenDelivery = (d: Pick<WebhookDeliveryJson, "status">) =>
  d.status === "pending" || d.status === "delivering";

const POLL_FAST_MS = 1_000;
const POLL_SLOW_MS = 30_000;

/**
 * How soon to look again: every second while an attempt is under way or due within seconds
 * (a test event just sent), at the next retry when that is later, never when nothing is open.
 */
function deliveriesPollInterval(
  pages: Page<WebhookDeliveryJson>[] | undefined,
  endpointEnabled: boolean,
  now = Date.now(),
): number | false {
  if (!endpointEnabled || !pages) return false;
  let soonest = Infinity;
  for (const page of pages) {
    for (const d of page.data) {
      if (d.status === "delivering") return POLL_FAST_MS;
      if (d.status === "pending") soonest = Math.min(soonest, d.next_attempt_at ?? now);
    }
  }
  if (soonest === Infinity) return false;
  // Long overdue: no dispatcher is picking it up right now, so there is no hurry to look.
  if (now - soonest > POLL_SLOW_MS) return POLL_SLOW_MS / 3;
  return Math.min(POLL_SLOW_MS, Math.max(POLL_FAST_MS, soonest - now + 250));
}

/** One endpoint's delivery log, newest first, a page at a time; polled while deliveries are open. */
export function webhookDeliveriesQuery(
  teamId: string,
  endpointId: string,
  filters: DeliveryFilters,
  endpointEnabled: boolean,
) {
  return infiniteQueryOptions({
    queryKey: webhookKeys.deliveriesInfinite(teamId, endpointId, filters),
    queryFn: ({ pageParam, signal }) => {
      const qs = new URLSearchParams({ limit: String(DELIVERIES_PAGE_SIZE) });
      if (filters.event_type) qs.set("event_type", filters.event_type);
      if (filters.outcome) qs.set("outcome", filters.outcome);
      if (pageParam) qs.set("cursor", pageParam);
      return apiFetch<Page<WebhookDeliveryJson>>(teamId, `${endpointPath(endpointId)}/deliveries?${qs}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.has_more ? last.next_cursor : null),
    refetchInterval: (query) => deliveriesPollInterval(query.state.data?.pages, endpointEnabled),
    retry: retryUnlessClientError,
  });
}

export const createWebhookEndpoint = (teamId: string, body: WebhookEndpointInput) =>
  apiFetch<CreatedWebhookEndpoint>(teamId, "/api/dashboard/webhooks", { method: "POST", body: JSON.stringify(body) });

export const updateWebhookEndpoint = (teamId: string, id: string, patch: WebhookEndpointPatch) =>
  apiFetch<WebhookEndpointJson>(teamId, endpointPath(id), { method: "PATCH", body: JSON.stringify(patch) });

export const deleteWebhookEndpoint = (teamId: string, id: string) =>
  apiFetch<{ id: string; deleted: true }>(teamId, endpointPath(id), { method: "DELETE" });

export const rotateWebhookSecret = (teamId: string, id: string) =>
  apiFetch<CreatedWebhookEndpoint>(teamId, `${endpointPath(id)}/rotate-secret`, { method: "POST" });

export const sendWebhookTestEvent = (teamId: string, id: string) =>
  apiFetch<{ event_id: string }>(teamId, `${endpointPath(id)}/test`, { method: "POST" });

export const resendWebhookDelivery = (teamId: string, endpointId: string, deliveryId: string) =>
  apiFetch<{ id: string; event_id: string }>(
    teamId,
    `${endpointPath(endpointId)}/deliveries/${encodeURIComponent(deliveryId)}/resend`,
    { method: "POST" },
  );

/** The team's settings of GET /api/dashboard/team. */
export type TeamSettings = { low_credits_percent: number; forbid_self_approval: boolean };

export const teamSettingsQuery = (teamId: string) =>
  queryOptions({
    queryKey: webhookKeys.teamSettings(teamId),
    queryFn: ({ signal }) => apiFetch<TeamSettings>(teamId, "/api/dashboard/team", { signal }),
  });

export const setLowCreditsPercent = (teamId: string, percent: number) =>
  apiFetch<TeamSettings & { id: string }>(teamId, "/api/dashboard/team", {
    method: "PATCH",
    body: JSON.stringify({ low_credits_percent: percent }),
  });

export const setForbidSelfApproval = (teamId: string, forbid: boolean) =>
  apiFetch<TeamSettings & { id: string }>(teamId, "/api/dashboard/team", {
    method: "PATCH",
    body: JSON.stringify({ forbid_self_approval: forbid }),
  });
