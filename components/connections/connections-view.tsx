"use client";

import Link from "next/link";
import { useDeferredValue, useMemo, useState } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import {
  useConnectionFacts,
  useConnections,
  useConnectionTypes,
  type ConnectionFilters,
} from "@/lib/queries/connections";
import { CONNECTION_HEALTHS, type ConnectionHealth, type ConnectionJson } from "@/lib/schemas/connections";
import type { ConnectionFactsJson } from "@/lib/schemas/connection-page";
import { ErrorNote } from "@/components/ui/error-note";
import { TypeLogo } from "@/components/connections/type-logo";
import { DeleteConnectionDialog } from "@/components/connections/delete-connection-dialog";
import { NewConnectionDialog } from "@/components/connections/new-connection-dialog";
import { LocalTime } from "@/components/time/local-time";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { plural } from "@/lib/text/plural";
import { HEALTH_WORDS, HealthBadge } from "@/components/connections/health-badge";
import { Pill } from "@/components/connections/connection-page";

/** The list's own filters (URL state beside type and external_id): health, duplicates, stale. */
const HEALTH_FILTERS: Record<string, string> = {
  attention: "Needs attention (not healthy)",
  ...Object.fromEntries(CONNECTION_HEALTHS.map((h) => [h, HEALTH_WORDS[h]])),
};

function matchesFacts(f: ConnectionFactsJson | undefined, health: string, duplicates: boolean, stale: boolean) {
  if (!health && !duplicates && !stale) return true;
  if (!f) return false;
  if (health === "attention" ? f.health === "healthy" : health && f.health !== (health as ConnectionHealth))
    return false;
  if (duplicates && f.duplicate_of.length === 0) return false;
  if (stale && !f.stale) return false;
  return true;
}

/**
 * The connections table: filters by type, external_id, health, duplicates and stale live in the
 * URL; the name search is local. Each row leads to its connection's page; selected rows are
 * deleted together after the workflows they would deactivate are shown.
 */
export function ConnectionsView({ teamId }: { teamId: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const filters: ConnectionFilters = {
    type: searchParams.get("type") || undefined,
    external_id: searchParams.get("external_id") || undefined,
  };
  const [externalDraft, setExternalDraft] = useState(filters.external_id ?? "");
  const [search, setSearch] = useState("");
  const deferredSearch = useDeferredValue(search);
  const healthFilter = searchParams.get("health") ?? "";
  const health = healthFilter in HEALTH_FILTERS ? healthFilter : "";
  const duplicatesOnly = searchParams.get("duplicates") === "1";
  const staleOnly = searchParams.get("stale") === "1";
  const [deleting, setDeleting] = useState<ConnectionJson[]>([]);
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [creating, setCreating] = useState(false);

  const connections = useConnections(teamId, filters);
  const types = useConnectionTypes(teamId);
  const facts = useConnectionFacts(teamId);
  const typeByName = useMemo(() => new Map((types.data ?? []).map((t) => [t.type, t])), [types.data]);
  const factsById = useMemo(() => new Map((facts.data ?? []).map((f) => [f.id, f])), [facts.data]);

  const setFilter = (name: keyof ConnectionFilters | "health" | "duplicates" | "stale", value: string) => {
    const next = new URLSearchParams(searchParams.toString());
    if (value) next.set(name, value);
    else next.delete(name);
    const q = next.toString();
    router.push(q ? `${pathname}?${q}` : pathname, { scroll: false });
  };

  const rows = useMemo(() => {
    const needle = deferredSearch.trim().toLowerCase();
    return (connections.data ?? []).filter(
      (c) =>
        matchesFacts(factsById.get(c.id ?? ""), health, duplicatesOnly, staleOnly) &&
        (!needle || `${c.display_name ?? ""} ${typeByName.get(c.type)?.name ?? c.type}`.toLowerCase().includes(needle)),
    );
  }, [connections.data, deferredSearch, typeByName, factsById, health, duplicatesOnly, staleOnly]);
  const filtered = Boolean(
    filters.type || filters.external_id || deferredSearch.trim() || health || duplicatesOnly || staleOnly,
  );
  // Only rows on screen stay selected: a filter that hides a row drops it from the selection.
  const chosen = rows.filter((c) => c.id && selected.has(c.id));
  const allChosen = rows.length > 0 && chosen.length === rows.length;
  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const nameOf = (id: string) => {
    const f = factsById.get(id);
    return f?.display_name || id;
  };
  const pending = connections.isPending || ((health || duplicatesOnly || staleOnly) && facts.isPending);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Connections</h1>
          <p className="text-sm text-zinc-500 dark:text-zinc-400">
            Accounts this team&apos;s workflows, agents and MCP servers can use.
          </p>
        </div>
        <button type="button" className="btn-primary" onClick={() => setCreating(true)}>
          New connection
        </button>
      </div>

      <div className="card grid gap-3 p-3 sm:grid-cols-2 lg:grid-cols-4">
        <label className="text-sm">
          <span className="mb-1 block font-medium">Type</span>
          <select className="input" value={filters.type ?? ""} onChange={(e) => setFilter("type", e.target.value)}>
            <option value="">All types</option>
            {(types.data ?? []).map((t) => (
              <option key={t.type} value={t.type}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
        <form
          className="text-sm"
          onSubmit={(e) => {
            e.preventDefault();
            setFilter("external_id", externalDraft.trim());
          }}
        >
          <label htmlFor="filter-external-id" className="mb-1 block font-medium">
            External ID
          </label>
          <div className="flex gap-2">
            <input
              id="filter-external-id"
              className="input"
              value={externalDraft}
              onChange={(e) => setExternalDraft(e.target.value)}
              placeholder="Exact match"
            />
            <button type="submit" className="btn-secondary">
              Apply
            </button>
          </div>
        </form>
        <label className="text-sm">
          <span className="mb-1 block font-medium">Search names</span>
          <input
            type="search"
            className="input"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Filter this list"
          />
        </label>
        <div className="text-sm">
          <label htmlFor="filter-health" className="mb-1 block font-medium">
            Health
          </label>
          <select
            id="filter-health"
            className="input"
            value={health}
            onChange={(e) => setFilter("health", e.target.value)}
          >
            <option value="">Any health</option>
            {Object.entries(HEALTH_FILTERS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
            <label className="inline-flex items-center gap-1.5">
              <input
                type="checkbox"
                checked={duplicatesOnly}
                onChange={(e) => setFilter("duplicates", e.target.checked ? "1" : "")}
              />
              Duplicates
            </label>
            <label className="inline-flex items-center gap-1.5">
              <input
                type="checkbox"
                checked={staleOnly}
                onChange={(e) => setFilter("stale", e.target.checked ? "1" : "")}
              />
              Stale
            </label>
          </div>
        </div>
      </div>

      {chosen.length > 0 && (
        <div
          role="region"
          aria-label="Selection"
          className="card flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm"
        >
          <span>{plural(chosen.length, "connection")} selected</span>
          <span className="flex gap-2">
            <button type="button" className="btn-secondary px-3 py-1.5" onClick={() => setSelected(new Set())}>
              Clear selection
            </button>
            <button type="button" className="btn-danger px-3 py-1.5" onClick={() => setDeleting(chosen)}>
              Delete selected
            </button>
          </span>
        </div>
      )}

      {connections.isError ? (
        <ErrorNote error={connections.error} title="The connections could not be loaded." />
      ) : (
        <ScrollRegion label="Connections table" className="card">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Connections</caption>
            <thead className="border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">
              <tr>
                <th scope="col" className="w-8 py-2 pl-3">
                  <input
                    type="checkbox"
                    aria-label="Select all shown"
                    checked={allChosen}
                    disabled={rows.length === 0}
                    onChange={() =>
                      setSelected(allChosen ? new Set() : new Set(rows.flatMap((c) => (c.id ? [c.id] : []))))
                    }
                  />
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Name
                </th>
                <th scope="col" className="hidden px-3 py-2 font-medium sm:table-cell">
                  Health
                </th>
                <th scope="col" className="hidden px-3 py-2 font-medium lg:table-cell">
                  External ID
                </th>
                <th scope="col" className="hidden px-3 py-2 font-medium xl:table-cell">
                  Last used
                </th>
                <th scope="col" className="hidden px-3 py-2 font-medium 2xl:table-cell">
                  Created
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
              {pending
                ? Array.from({ length: 4 }, (_, i) => (
                    <tr key={i} aria-hidden="true">
                      <td colSpan={7} className="px-3 py-3">
                        <div className="h-5 w-2/3 animate-pulse rounded bg-zinc-200 dark:bg-zinc-800" />
                      </td>
                    </tr>
                  ))
                : rows.map((c) => {
                    const type = typeByName.get(c.type);
                    const f = c.id ? factsById.get(c.id) : undefined;
                    const name = c.display_name || type?.name || c.type;
                    const duplicates = f?.duplicate_of ?? [];
                    return (
                      <tr key={c.id} data-testid="connection-row" data-connection-id={c.id ?? undefined}>
                        <td className="w-8 py-2 pl-3 align-middle">
                          {c.id && (
                            <input
                              type="checkbox"
                              aria-label={`Select ${name}`}
                              checked={selected.has(c.id)}
                              onChange={() => toggle(c.id!)}
                            />
                          )}
                        </td>
                        <td className="px-3 py-2">
                          <div className="flex items-center gap-3">
                            <span className="hidden sm:contents">
                              <TypeLogo logo={type?.logo} size={28} />
                            </span>
                            <div className="min-w-0">
                              <div className="flex flex-wrap items-center gap-1.5">
                                {c.id ? (
                                  <Link
                                    href={`/${teamId}/connections/${encodeURIComponent(c.id)}`}
                                    className="wrap-anywhere font-medium hover:underline"
                                  >
                                    {name}
                                  </Link>
                                ) : (
                                  <span className="font-medium">{name}</span>
                                )}
                                {c.is_private && <Pill tone="amber">Private</Pill>}
                                {duplicates.length > 0 && (
                                  <span data-testid="duplicate-mark">
                                    <Pill tone="violet" title="Another connection reaches the same provider account">
                                      Duplicate of {duplicates.map(nameOf).join(", ")}
                                    </Pill>
                                  </span>
                                )}
                                {f?.stale && <Pill tone="zinc">Stale</Pill>}
                              </div>
                              <div className="wrap-anywhere text-xs text-zinc-500 dark:text-zinc-400">
                                {type?.name ?? c.type} · <span className="break-all font-mono">{c.id}</span>
                              </div>
                              <div className="text-xs text-zinc-500 lg:hidden dark:text-zinc-400">
                                {c.external_id ? `external_id ${c.external_id}` : null}
                              </div>
                              {f && (
                                <div className="text-xs text-zinc-500 xl:hidden dark:text-zinc-400">
                                  Last used {f.last_used_at ? <LocalTime seconds={f.last_used_at} /> : "never"}
                                </div>
                              )}
                              {f && (
                                <div className="mt-1 sm:hidden">
                                  <HealthBadge health={f.health} error={f.health_error} />
                                </div>
                              )}
                            </div>
                          </div>
                        </td>
                        <td className="hidden px-3 py-2 sm:table-cell">
                          {f ? (
                            <HealthBadge health={f.health} error={f.health_error} />
                          ) : facts.isPending ? (
                            <div className="h-5 w-16 animate-pulse rounded bg-zinc-200 dark:bg-zinc-800" />
                          ) : (
                            "—"
                          )}
                        </td>
                        <td className="hidden px-3 py-2 font-mono text-xs lg:table-cell">
                          {c.external_id ?? <span className="text-zinc-500 dark:text-zinc-400">—</span>}
                        </td>
                        <td
                          data-testid="last-used"
                          className="hidden whitespace-nowrap px-3 py-2 text-zinc-600 xl:table-cell dark:text-zinc-400"
                        >
                          {f?.last_used_at ? <LocalTime seconds={f.last_used_at} /> : f ? "Never" : "—"}
                        </td>
                        <td className="hidden whitespace-nowrap px-3 py-2 text-zinc-600 2xl:table-cell dark:text-zinc-400">
                          {c.created_at ? <LocalTime seconds={c.created_at / 1000} /> : "—"}
                        </td>
                        <td className="whitespace-nowrap px-2 py-2 text-right sm:px-3">
                          {f?.health === "needs_reauth" && (
                            <Link
                              href={`/${teamId}/auth-links?type=${encodeURIComponent(c.type)}${c.external_id ? `&external_id=${encodeURIComponent(c.external_id)}` : ""}`}
                              className="mb-1 block text-sm font-medium text-indigo-600 underline hover:text-indigo-500 sm:mb-0 sm:mr-2 sm:inline dark:text-indigo-400"
                            >
                              Re-authorize
                            </Link>
                          )}
                          <button
                            type="button"
                            className="btn-secondary px-3 py-1.5"
                            onClick={() => setDeleting([c])}
                            aria-label={`Delete ${c.display_name ?? c.id}`}
                          >
                            Delete
                          </button>
                        </td>
                      </tr>
                    );
                  })}
            </tbody>
          </table>
          {!pending && rows.length === 0 && (
            <div className="px-4 py-10 text-center text-sm">
              {filtered ? (
                <p>
                  No connection matches these filters.{" "}
                  <button
                    type="button"
                    className="font-medium text-indigo-600 underline dark:text-indigo-400"
                    onClick={() => {
                      setSearch("");
                      setExternalDraft("");
                      router.push(pathname, { scroll: false });
                    }}
                  >
                    Clear filters
                  </button>
                </p>
              ) : (
                <>
                  <p className="font-medium">No connections yet.</p>
                  <p className="mt-1 text-zinc-500 dark:text-zinc-400">
                    Choose “New connection” to add one from credentials, or share an auth link with the account owner.
                  </p>
                </>
              )}
            </div>
          )}
        </ScrollRegion>
      )}

      <DeleteConnectionDialog
        teamId={teamId}
        connections={deleting}
        onClose={() => setDeleting([])}
        onDeleted={() => setSelected(new Set())}
      />
      <NewConnectionDialog teamId={teamId} open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}
