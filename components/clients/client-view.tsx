"use client";

import Link from "next/link";
import { useId, useMemo, useState } from "react";
import { createColumnHelper } from "@tanstack/react-table";
import { DataTable } from "@/components/data-table/data-table";
import { EmptyState } from "@/components/data-table/empty-state";
import { HealthBadge, HEALTH_WORDS } from "@/components/connections/health-badge";
import { TypeLogo } from "@/components/connections/type-logo";
import { ConnectPlatformDialog } from "@/components/clients/connect-platform-dialog";
import { UsageChart } from "@/components/overview/usage-chart";
import { RecentErrors } from "@/components/overview/recent-errors";
import { formatCredits } from "@/components/overview/format";
import { ErrorNote } from "@/components/ui/error-note";
import { LocalTime } from "@/components/time/local-time";
import { clientUsageCsvUrl, useCheckClient, useClient } from "@/lib/queries/clients";
import { useConnectionTypes } from "@/lib/queries/connections";
import type { ClientConnectionDetail } from "@/lib/schemas/clients";
import { plural } from "@/lib/text/plural";

const col = createColumnHelper<ClientConnectionDetail>();
const CONNECTIONS_TEMPLATE = "minmax(12rem,1.6fr) 10rem 10.5rem 5.5rem 4.5rem 4.5rem";
const muted = "text-zinc-600 dark:text-zinc-400";

function Section({ title, action, children }: { title: string; action?: React.ReactNode; children: React.ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="card min-w-0 p-4 sm:p-5">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id={id} className="text-base font-semibold">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}

function Figure({ label, value, testId }: { label: string; value: React.ReactNode; testId?: string }) {
  return (
    <div className="card min-w-0 p-4">
      <p className={`text-xs font-medium uppercase tracking-wide ${muted}`}>{label}</p>
      <p className="mt-1 text-2xl font-semibold tabular-nums" data-testid={testId}>
        {value}
      </p>
    </div>
  );
}

/** A UTC day as the date input writes it, and back to Unix seconds. */
const dayInput = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
const inputDay = (value: string) => Math.floor(Date.parse(`${value}T00:00:00Z`) / 1000);

/** The CSV of usage per connection and per UTC day, for the days chosen (this period so far by default). */
function UsageCsv({ teamId, clientKey, periodStart }: { teamId: string; clientKey: string; periodStart: number }) {
  const today = Math.floor(Date.now() / 1000);
  const [from, setFrom] = useState(dayInput(periodStart));
  const [to, setTo] = useState(dayInput(today));
  const fromS = inputDay(from);
  const toS = inputDay(to) + 86_400;
  const valid = Number.isFinite(fromS) && Number.isFinite(toS) && fromS < toS && toS - fromS <= 400 * 86_400;
  const id = useId();
  return (
    <div className="flex flex-wrap items-end gap-3 text-sm">
      <div>
        <label htmlFor={`${id}-from`} className={`mb-1 block text-xs font-medium ${muted}`}>
          From (UTC)
        </label>
        <input id={`${id}-from`} type="date" className="input" value={from} onChange={(e) => setFrom(e.target.value)} />
      </div>
      <div>
        <label htmlFor={`${id}-to`} className={`mb-1 block text-xs font-medium ${muted}`}>
          To (UTC, included)
        </label>
        <input id={`${id}-to`} type="date" className="input" value={to} onChange={(e) => setTo(e.target.value)} />
      </div>
      {valid ? (
        <a className="btn-secondary" href={clientUsageCsvUrl(teamId, clientKey, fromS, toS)} download>
          Download CSV
        </a>
      ) : (
        <p className="text-rose-700 dark:text-rose-300">Choose a start before the end, at most 400 days apart.</p>
      )}
    </div>
  );
}

/** One client: its connections, spend, errors and workflows; *Check now*, *Connect another platform*, the CSV. */
export function ClientView({ teamId, clientKey }: { teamId: string; clientKey: string }) {
  const client = useClient(teamId, clientKey);
  const check = useCheckClient(teamId, clientKey);
  const types = useConnectionTypes(teamId);
  const [connecting, setConnecting] = useState(false);
  const typeByName = useMemo(() => new Map((types.data ?? []).map((t) => [t.type, t])), [types.data]);
  const columns = useMemo(
    () => [
      col.accessor((c) => c.display_name ?? c.type, {
        id: "name",
        header: "Connection",
        cell: (c) => (
          <span className="flex min-w-0 items-center gap-2">
            <TypeLogo logo={typeByName.get(c.row.original.type)?.logo} size={22} />
            <span className="min-w-0 truncate">
              <span className="font-medium">{c.getValue()}</span>{" "}
              <span className={`text-xs ${muted}`}>
                {typeByName.get(c.row.original.type)?.name ?? c.row.original.type}
              </span>
            </span>
          </span>
        ),
      }),
      col.accessor("health", {
        header: "Health",
        cell: (c) => <HealthBadge health={c.getValue()} error={c.row.original.health_error} />,
      }),
      col.accessor("last_used_at", {
        header: "Last used",
        cell: (c) => {
          const v = c.getValue();
          return v === null ? <span className={muted}>Never</span> : <LocalTime seconds={v} className={muted} />;
        },
      }),
      col.accessor("credits", {
        header: "Credits",
        cell: (c) => <span className="tabular-nums">{formatCredits(c.getValue())}</span>,
      }),
      col.accessor("operations_7d", {
        header: "Ops 7d",
        cell: (c) => <span className="tabular-nums">{c.getValue().toLocaleString("en")}</span>,
      }),
      col.accessor("errors_7d", {
        header: "Errors",
        cell: (c) => (
          <span className={`tabular-nums ${c.getValue() ? "font-medium text-rose-700 dark:text-rose-400" : ""}`}>
            {c.getValue().toLocaleString("en")}
          </span>
        ),
      }),
    ],
    [typeByName],
  );

  if (client.isError)
    return (
      <div className="space-y-4">
        <Link
          href={`/${teamId}/clients`}
          className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
        >
          ← Clients
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight">Client</h1>
        <ErrorNote error={client.error} title="This client could not be loaded." />
      </div>
    );
  const data = client.data;
  const name = data ? (data.external_id ?? "No client") : null;
  const credits = data ? data.connections.reduce((s, c) => s + c.credits, data.unattributed_credits) : 0;
  const operations = data?.connections.reduce((s, c) => s + c.operations_7d, 0) ?? 0;
  const errors = data?.connections.reduce((s, c) => s + c.errors_7d, 0) ?? 0;
  const attention = data?.connections.filter((c) => c.health !== "healthy") ?? [];

  return (
    <div className="space-y-4">
      <Link
        href={`/${teamId}/clients`}
        className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
      >
        ← Clients
      </Link>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight break-all">{name ?? "Client"}</h1>
          <p className={`text-sm ${muted}`}>
            {data?.external_id === null
              ? "Connections made without an external_id, and what ran on no connection."
              : "The accounts connected with this external_id."}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className="btn-secondary"
            disabled={!data?.connections.length || check.isPending}
            onClick={() => check.mutate()}
          >
            {check.isPending ? "Checking…" : "Check now"}
          </button>
          <button type="button" className="btn-primary" disabled={!data} onClick={() => setConnecting(true)}>
            Connect another platform
          </button>
        </div>
      </div>

      {check.isError && <ErrorNote error={check.error} title="The check did not run." />}
      {check.data && (
        <p role="status" className="card p-3 text-sm" data-testid="check-result">
          Checked {plural(check.data.checks.length, "connection")}:{" "}
          {(["healthy", "needs_reauth", "unreachable"] as const)
            .map((h) => [h, check.data.checks.filter((c) => c.health === h).length] as const)
            .filter(([, n]) => n > 0)
            .map(([h, n]) => `${n} ${HEALTH_WORDS[h].toLowerCase()}`)
            .join(", ")}
          .
        </p>
      )}

      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Figure label="Credits this period" value={data ? formatCredits(credits) : "…"} testId="client-credits" />
        <Figure label="Operations, 7 days" value={data ? operations.toLocaleString("en") : "…"} />
        <Figure label="Errors, 7 days" value={data ? errors.toLocaleString("en") : "…"} />
        <Figure label="Pending auth links" value={data ? data.pending_links.toLocaleString("en") : "…"} />
      </div>

      {attention.length > 0 && (
        <p className="rounded-lg border border-rose-200 bg-rose-50 p-3 text-sm text-rose-900 dark:border-rose-900/60 dark:bg-rose-950/40 dark:text-rose-200">
          {plural(attention.length, "connection needs", "connections need")} attention. Re-authorize one through{" "}
          <button type="button" className="font-medium underline" onClick={() => setConnecting(true)}>
            a new auth link
          </button>
          .
        </p>
      )}

      <Section title="Connections">
        <DataTable<ClientConnectionDetail>
          label="Connections of this client"
          data={data?.connections ?? []}
          columns={columns}
          template={CONNECTIONS_TEMPLATE}
          getRowId={(c) => c.id}
          isLoading={client.isPending}
          error={null}
          refetch={client.refetch}
          heightClass="max-h-[28rem]"
          empty={
            <EmptyState title="No connection yet">
              <p>Its auth links are pending: the connection appears here once the account owner signs in.</p>
            </EmptyState>
          }
          end={
            data && data.unattributed_credits > 0 ? (
              <p className="mt-1">
                Plus {formatCredits(data.unattributed_credits)} credits this period on no connection (Copilot drafts,
                agent turns and runs without one).
              </p>
            ) : null
          }
        />
      </Section>

      <Section title="Credits per day">
        {data ? (
          <UsageChart usage={data.usage} />
        ) : (
          <div className="h-48 animate-pulse rounded-lg bg-zinc-100 dark:bg-zinc-800" />
        )}
      </Section>

      <div className="grid gap-4 lg:grid-cols-2">
        <Section
          title="Recent errors"
          action={
            <Link
              href={`/${teamId}/logs?status=error`}
              className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
            >
              All errors
            </Link>
          }
        >
          {data ? (
            <RecentErrors team={teamId} logs={data.recent_errors} />
          ) : (
            <div className="h-24 animate-pulse rounded-lg bg-zinc-100 dark:bg-zinc-800" />
          )}
        </Section>
        <Section title="Workflows that use it">
          {!data ? (
            <div className="h-24 animate-pulse rounded-lg bg-zinc-100 dark:bg-zinc-800" />
          ) : data.workflows.length === 0 ? (
            <p className={`text-sm ${muted}`}>No workflow uses its connections.</p>
          ) : (
            <ul className="divide-y divide-zinc-200 text-sm dark:divide-zinc-800" data-testid="client-workflows">
              {data.workflows.map((w) => (
                <li key={w.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <Link
                    href={`/${teamId}/workflows/${encodeURIComponent(w.id)}`}
                    className="min-w-0 font-medium break-all hover:underline"
                  >
                    {w.name}
                  </Link>
                  <span className={`text-xs ${muted}`}>
                    {w.active ? "Active" : "Inactive"} · {plural(w.connection_ids.length, "connection")}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Section>
      </div>

      <Section title="Usage CSV">
        <p className={`mb-3 text-sm ${muted}`}>Credits, operations and errors per connection and per UTC day.</p>
        {data ? (
          <UsageCsv teamId={teamId} clientKey={clientKey} periodStart={data.usage.period_start} />
        ) : (
          <div className="h-10 animate-pulse rounded-lg bg-zinc-100 dark:bg-zinc-800" />
        )}
      </Section>

      <ConnectPlatformDialog
        teamId={teamId}
        externalId={data?.external_id ?? null}
        connectedTypes={data?.connections.map((c) => c.type) ?? []}
        open={connecting && Boolean(data)}
        onClose={() => setConnecting(false)}
      />
    </div>
  );
}
