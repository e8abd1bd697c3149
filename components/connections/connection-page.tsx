"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import {
  useCheckConnection,
  useConnectionErrors,
  useConnectionPage,
  useConnectionSpend,
  useConnectionTypes,
} from "@/lib/queries/connections";
import { ApiRequestError } from "@/lib/queries/api-client";
import type { ConnectionPageJson, ConnectionSpendJson } from "@/lib/schemas/connection-page";
import { ErrorNote } from "@/components/ui/error-note";
import { HealthBadge } from "@/components/connections/health-badge";
import { TypeLogo } from "@/components/connections/type-logo";
import { RenameConnectionDialog } from "@/components/connections/rename-connection-dialog";
import { DeleteConnectionDialog } from "@/components/connections/delete-connection-dialog";
import { ConsentList } from "@/components/connect/consent-list";
import { RecentErrors } from "@/components/overview/recent-errors";
import { SkeletonBlock } from "@/components/overview/section-states";
import { formatCredits, formatDay } from "@/components/overview/format";
import { LocalTime } from "@/components/time/local-time";
import { plural } from "@/lib/text/plural";

const link = "font-medium text-indigo-600 underline-offset-2 hover:underline dark:text-indigo-400";

function Card({
  title,
  id,
  children,
  className = "",
}: {
  title: string;
  id: string;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={id} className={`card min-w-0 p-4 sm:p-5 ${className}`}>
      <h2 id={id} className="mb-3 text-base font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * One connection (issue 50): its health with *Check now*, last use, duplicates, what uses it,
 * its spend this period, its recent errors and what it lets Patchbay do, with *Rename*.
 */
export function ConnectionPage({ teamId, connectionId }: { teamId: string; connectionId: string }) {
  const page = useConnectionPage(teamId, connectionId);
  const types = useConnectionTypes(teamId);
  const check = useCheckConnection(teamId, connectionId);
  const router = useRouter();
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  if (page.isPending)
    return (
      <div className="space-y-4" aria-busy="true">
        <SkeletonBlock className="h-16" />
        <SkeletonBlock className="h-40" />
      </div>
    );
  if (page.isError)
    return (
      <div className="space-y-3">
        <BackLink teamId={teamId} />
        {page.error instanceof ApiRequestError && page.error.status === 404 ? (
          <p className="card p-6 text-sm">This connection does not exist, or it is not visible to you.</p>
        ) : (
          <ErrorNote error={page.error} title="The connection could not be loaded." />
        )}
      </div>
    );

  const c = page.data;
  const type = types.data?.find((t) => t.type === c.type);
  const name = c.display_name || c.type_name;
  return (
    <div className="space-y-4">
      <BackLink teamId={teamId} />
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 items-center gap-3">
          <TypeLogo logo={type?.logo} size={40} />
          <div className="min-w-0">
            <div className="flex flex-wrap items-center gap-2">
              <h1 className="wrap-anywhere text-2xl font-semibold tracking-tight">{name}</h1>
              <HealthBadge health={c.health} error={c.health_error} />
              {c.is_private && <Pill tone="amber">Private</Pill>}
              {c.stale && <Pill tone="zinc">Stale</Pill>}
              {c.duplicates.length > 0 && <Pill tone="violet">Duplicate</Pill>}
            </div>
            <p className="wrap-anywhere text-sm text-zinc-500 dark:text-zinc-400">
              {c.type_name} · <span className="font-mono">{c.id}</span>
              {c.external_id ? (
                <>
                  {" "}
                  · external_id <span className="font-mono">{c.external_id}</span>
                </>
              ) : null}
            </p>
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn-primary" disabled={check.isPending} onClick={() => check.mutate()}>
            {check.isPending ? "Checking…" : "Check now"}
          </button>
          <button type="button" className="btn-secondary" onClick={() => setRenaming(true)}>
            Rename
          </button>
          <button type="button" className="btn-secondary" onClick={() => setDeleting(true)}>
            Delete
          </button>
        </div>
      </div>
      {check.isError && <ErrorNote error={check.error} title="The check could not run." />}

      <div className="grid gap-4 lg:grid-cols-3">
        <Card title="Health" id="health-heading">
          <HealthFacts teamId={teamId} page={c} />
        </Card>
        <Card title="Use" id="use-heading">
          <dl className="space-y-2 text-sm">
            <div>
              <dt className="text-zinc-500 dark:text-zinc-400">Last used</dt>
              <dd data-testid="last-used">{c.last_used_at ? <LocalTime seconds={c.last_used_at} /> : "Never used"}</dd>
            </div>
            <div>
              <dt className="text-zinc-500 dark:text-zinc-400">Created</dt>
              <dd>
                <LocalTime seconds={c.created_at} />
              </dd>
            </div>
          </dl>
          {c.stale && (
            <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-400">
              Stale: no operation used it for {c.stale_after_days} days. Delete it if nothing needs it any more.
            </p>
          )}
        </Card>
        <Card title="Same account" id="duplicates-heading">
          {c.duplicates.length === 0 ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              No other connection reaches this provider account.
            </p>
          ) : (
            <>
              <p className="text-sm text-zinc-600 dark:text-zinc-400">
                {c.duplicates.length === 1
                  ? "Another connection reaches the same provider account:"
                  : `${c.duplicates.length} other connections reach the same provider account:`}
              </p>
              <ul className="mt-2 space-y-1 text-sm" aria-label="Duplicates">
                {c.duplicates.map((d) => (
                  <li key={d.id} className="wrap-anywhere">
                    <Link href={`/${teamId}/connections/${encodeURIComponent(d.id)}`} className={link}>
                      {d.display_name || d.id}
                    </Link>
                    {d.external_id ? (
                      <span className="text-zinc-500 dark:text-zinc-400"> · external_id {d.external_id}</span>
                    ) : null}
                  </li>
                ))}
              </ul>
            </>
          )}
        </Card>

        <Card title="What uses it" id="uses-heading" className="lg:col-span-3">
          <Uses teamId={teamId} page={c} />
        </Card>

        <Card title="Spend this period" id="spend-heading" className="lg:col-span-2">
          <Spend teamId={teamId} connectionId={connectionId} />
        </Card>
        <Card title="Recent errors" id="errors-heading">
          <Errors teamId={teamId} connectionId={connectionId} />
        </Card>

        <Card title="What it allows" id="consent-heading" className="lg:col-span-3">
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            What this connection lets Patchbay do with the account, in the words the connect page asked consent with.
          </p>
          <ConsentList
            providerName={c.consent.provider_name}
            text={{
              reads: c.consent.reads,
              writes: c.consent.writes,
              scopes: c.consent.scopes,
              scopesSetOnApp: c.consent.scopes_set_on_app,
            }}
          />
        </Card>
      </div>

      <RenameConnectionDialog
        teamId={teamId}
        connectionId={connectionId}
        current={c.display_name ?? ""}
        open={renaming}
        onClose={() => setRenaming(false)}
      />
      <DeleteConnectionDialog
        teamId={teamId}
        connections={deleting ? [c] : []}
        onClose={() => setDeleting(false)}
        onDeleted={() => router.push(`/${teamId}/connections`)}
      />
    </div>
  );
}

function BackLink({ teamId }: { teamId: string }) {
  return (
    <Link href={`/${teamId}/connections`} className={`text-sm ${link}`}>
      ← Connections
    </Link>
  );
}

const tones = {
  amber: "bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200",
  zinc: "bg-zinc-200 text-zinc-800 dark:bg-zinc-700 dark:text-zinc-100",
  violet: "bg-violet-100 text-violet-800 dark:bg-violet-900/50 dark:text-violet-200",
};

export function Pill({
  tone,
  children,
  title,
}: {
  tone: keyof typeof tones;
  children: React.ReactNode;
  title?: string;
}) {
  return (
    <span
      title={title}
      className={`inline-flex whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ${tones[tone]}`}
    >
      {children}
    </span>
  );
}

function HealthFacts({ teamId, page: c }: { teamId: string; page: ConnectionPageJson }) {
  return (
    <div className="space-y-2 text-sm">
      <HealthBadge health={c.health} />
      <p data-testid="checked-at">
        {c.checked_at ? (
          <>
            Checked <LocalTime seconds={c.checked_at} />
          </>
        ) : (
          "Not checked yet"
        )}
      </p>
      {c.health_error && (
        <p data-testid="health-error" className="wrap-anywhere text-rose-700 dark:text-rose-300">
          {c.health_error}
        </p>
      )}
      {c.health === "needs_reauth" && (
        <Link
          href={`/${teamId}/auth-links?type=${encodeURIComponent(c.type)}${c.external_id ? `&external_id=${encodeURIComponent(c.external_id)}` : ""}`}
          className={link}
        >
          Re-authorize
        </Link>
      )}
    </div>
  );
}

function Uses({ teamId, page: c }: { teamId: string; page: ConnectionPageJson }) {
  const { workflows, mcp_servers: servers, conversations } = c.uses;
  const column = (title: string, id: string, empty: string, items: React.ReactNode[]) => (
    <div className="min-w-0">
      <h3 id={id} className="text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">
        {title}
      </h3>
      {items.length === 0 ? (
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{empty}</p>
      ) : (
        <ul aria-labelledby={id} className="mt-1 space-y-1 text-sm">
          {items}
        </ul>
      )}
    </div>
  );
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      {column(
        `Workflows (${workflows.length})`,
        "uses-workflows",
        "No workflow's nodes use it.",
        workflows.map((w) => (
          <li key={w.id} className="wrap-anywhere">
            <Link href={`/${teamId}/workflows/${encodeURIComponent(w.id)}`} className={link}>
              {w.name}
            </Link>
            {!w.active && <span className="text-zinc-500 dark:text-zinc-400"> · inactive</span>}
          </li>
        )),
      )}
      {column(
        `MCP servers (${servers.length})`,
        "uses-mcp",
        "No MCP server includes it.",
        servers.map((s) => (
          <li key={s.id} className="wrap-anywhere">
            <Link href={`/${teamId}/settings/mcp-servers`} className={link}>
              {s.name}
            </Link>
            {s.is_private && <span className="text-zinc-500 dark:text-zinc-400"> · private</span>}
          </li>
        )),
      )}
      {column(
        `Agent conversations (${conversations.length})`,
        "uses-conversations",
        "No agent conversation you can read used it.",
        conversations.map((v) => (
          <li key={v.id} className="wrap-anywhere">
            <Link href={`/${teamId}/agent/${encodeURIComponent(v.id)}`} className={link}>
              {v.title}
            </Link>{" "}
            <span className="text-xs text-zinc-500 dark:text-zinc-400">
              <LocalTime seconds={v.last_used_at} dateOnly />
            </span>
          </li>
        )),
      )}
    </div>
  );
}

function Spend({ teamId, connectionId }: { teamId: string; connectionId: string }) {
  const spend = useConnectionSpend(teamId, connectionId);
  if (spend.isPending) return <SkeletonBlock className="h-32" />;
  if (spend.isError) return <ErrorNote error={spend.error} title="The spend could not be loaded." />;
  return <SpendChart spend={spend.data} />;
}

/** Credits per day of the period as bars; the total above them. */
function SpendChart({ spend }: { spend: ConnectionSpendJson }) {
  const max = Math.max(1, ...spend.days.map((d) => d.credits));
  return (
    <div>
      <p className="text-sm">
        <span data-testid="spend-total" className="text-2xl font-semibold tabular-nums">
          {formatCredits(spend.credits)}
        </span>{" "}
        credits since <LocalTime seconds={spend.period_start} dateOnly />
      </p>
      <div
        className="mt-3 flex h-28 items-end gap-px"
        role="img"
        aria-label={`Credits per day: ${
          spend.days
            .filter((d) => d.credits > 0)
            .map((d) => `${formatDay(d.day)} ${d.credits}`)
            .join(", ") || "none yet"
        }`}
      >
        {spend.days.map((d) => (
          <div
            key={d.day}
            data-testid="spend-day"
            data-credits={d.credits}
            title={`${formatDay(d.day)}: ${plural(d.credits, "credit")}`}
            className="min-w-0 flex-1 rounded-t bg-indigo-500 dark:bg-indigo-400"
            style={{
              height: d.credits > 0 ? `${Math.max(4, (d.credits / max) * 100)}%` : "1px",
              opacity: d.credits > 0 ? 1 : 0.3,
            }}
          />
        ))}
      </div>
      <div className="mt-1 flex justify-between text-xs text-zinc-500 dark:text-zinc-400">
        <span>{formatDay(spend.period_start)}</span>
        <span>{formatDay(spend.period_end - 1)}</span>
      </div>
    </div>
  );
}

function Errors({ teamId, connectionId }: { teamId: string; connectionId: string }) {
  const errors = useConnectionErrors(teamId, connectionId);
  if (errors.isPending) return <SkeletonBlock className="h-24" />;
  if (errors.isError) return <ErrorNote error={errors.error} title="The errors could not be loaded." />;
  if (errors.data.data.length === 0)
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">No failed operation ran on this connection.</p>;
  return <RecentErrors team={teamId} logs={errors.data.data} />;
}
