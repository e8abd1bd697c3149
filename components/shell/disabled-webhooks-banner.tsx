"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { webhookEndpointsQuery } from "@/lib/queries/webhooks";

/**
 * On every page of an owner's dashboard: endpoints the dispatcher turned off, which receive
 * nothing until someone turns them on again. Reads the endpoints list (the Settings section's
 * query, so the cache is shared); says nothing when that fails.
 */
export function DisabledWebhooksBanner({ team }: { team: string }) {
  const endpoints = useQuery(webhookEndpointsQuery(team));
  const disabled = endpoints.data?.data.filter((e) => e.disabled_by === "failures") ?? [];
  if (disabled.length === 0) return null;
  return (
    <div
      role="status"
      data-testid="disabled-webhooks-banner"
      className="border-b border-amber-300 bg-amber-50 dark:border-amber-900 dark:bg-amber-950/50"
    >
      <ul className="mx-auto max-w-[96rem] space-y-1 px-4 py-2 text-sm text-amber-900 dark:text-amber-200">
        {disabled.map((e) => (
          <li key={e.id} className="[overflow-wrap:anywhere]">
            Webhook endpoint <span className="font-mono text-xs font-semibold">{e.url}</span> was disabled after 3 days
            of failed deliveries.{" "}
            <Link
              href={`/${team}/settings/webhooks?webhook=${encodeURIComponent(e.id)}`}
              className="font-medium underline underline-offset-2 hover:no-underline"
            >
              Review it in Settings → Webhooks
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
