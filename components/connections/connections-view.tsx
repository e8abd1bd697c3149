"use client";

import Link from "next/link";
import { useDeferredValue, useMemo, useState } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import {
  useConnections,
  useConnectionsNeedingReauth,
  useConnectionTypes,
  type ConnectionFilters,
} from "@/lib/queries/connections";
import type { ConnectionJson } from "@/lib/schemas/connections";
import { ErrorNote } from "@/components/ui/error-note";
import { TypeLogo } from "@/components/connections/type-logo";
import { DeleteConnectionDialog } from "@/components/connections/delete-connection-dialog";
import { NewConnectionDialog } from "@/components/connections/new-connection-dialog";
import { LocalTime } from "@/components/time/local-time";
import { ScrollRegion } from "@/components/ui/scroll-region";

/** The connections table: filters by type and external_id live in the URL; the name search is local. */
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
  const [deleting, setDeleting] = useState<ConnectionJson | null>(null);
  const [creating, setCreating] = useState(false);

  const connections = useConnections(teamId, filters);
  const types = useConnectionTypes(teamId);
  const reauth = useConnectionsNeedingReauth(teamId);
  const typeByName = useMemo(() => new Map((types.data ?? []).map((t) => [t.type, t])), [types.data]);
  const needsReauth = useMemo(() => new Set((reauth.data ?? []).map((r) => r.id)), [reauth.data]);

  const setFilter = (name: keyof ConnectionFilters, value: string) => {
    const next = new URLSearchParams(searchParams.toString());
    if (value) next.set(name, value);
    else next.delete(name);
    const q = next.toString();
    router.push(q ? `${pathname}?${q}` : pathname, { scroll: false });
  };

  const rows = useMemo(() => {
    const needle = deferredSearch.trim().toLowerCase();
    const all = connections.data ?? [];
    if (!needle) return all;
    return all.filter((c) =>
      `${c.display_name ?? ""} ${typeByName.get(c.type)?.name ?? c.type}`.toLowerCase().includes(needle),
    );
  }, [connections.data, deferredSearch, typeByName]);
  const filtered = Boolean(filters.type || filters.external_id || deferredSearch.trim());

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

      <div className="card grid gap-3 p-3 sm:grid-cols-3">
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
      </div>

      {connections.isError ? (
        <ErrorNote error={connections.error} title="The connections could not be loaded." />
      ) : (
        <ScrollRegion label="Connections table" className="card">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Connections</caption>
            <thead className="border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  Name
                </th>
                <th scope="col" className="hidden px-3 py-2 font-medium sm:table-cell">
                  External ID
                </th>
                <th scope="col" className="hidden px-3 py-2 font-medium md:table-cell">
                  Created
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
              {connections.isPending
                ? Array.from({ length: 4 }, (_, i) => (
                    <tr key={i} aria-hidden="true">
                      <td colSpan={4} className="px-3 py-3">
                        <div className="h-5 w-2/3 animate-pulse rounded bg-zinc-200 dark:bg-zinc-800" />
                      </td>
                    </tr>
                  ))
                : rows.map((c) => {
                    const type = typeByName.get(c.type);
                    return (
                      <tr key={c.id} data-testid="connection-row">
                        <td className="px-3 py-2">
                          <div className="flex items-center gap-3">
                            <TypeLogo logo={type?.logo} size={28} />
                            <div className="min-w-0">
                              <div className="flex flex-wrap items-center gap-1.5">
                                <span className="font-medium">{c.display_name || type?.name || c.type}</span>
                                {c.is_private && (
                                  <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800 dark:bg-amber-900/50 dark:text-amber-200">
                                    Private
                                  </span>
                                )}
                                {c.id && needsReauth.has(c.id) && (
                                  <span className="rounded-full bg-rose-100 px-2 py-0.5 text-xs font-medium text-rose-800 dark:bg-rose-900/50 dark:text-rose-200">
                                    Needs re-authorization
                                  </span>
                                )}
                              </div>
                              <div className="text-xs text-zinc-500 dark:text-zinc-400">
                                {type?.name ?? c.type} · <span className="font-mono">{c.id}</span>
                              </div>
                              <div className="text-xs text-zinc-500 sm:hidden dark:text-zinc-400">
                                {c.external_id ? `external_id ${c.external_id}` : null}
                              </div>
                            </div>
                          </div>
                        </td>
                        <td className="hidden px-3 py-2 font-mono text-xs sm:table-cell">
                          {c.external_id ?? <span className="text-zinc-500 dark:text-zinc-400">—</span>}
                        </td>
                        <td className="hidden whitespace-nowrap px-3 py-2 text-zinc-600 md:table-cell dark:text-zinc-400">
                          {c.created_at ? <LocalTime seconds={c.created_at / 1000} /> : "—"}
                        </td>
                        <td className="whitespace-nowrap px-3 py-2 text-right">
                          {c.id && needsReauth.has(c.id) && (
                            <Link
                              href={`/${teamId}/auth-links?type=${encodeURIComponent(c.type)}${c.external_id ? `&external_id=${encodeURIComponent(c.external_id)}` : ""}`}
                              className="mr-2 text-sm font-medium text-indigo-600 underline hover:text-indigo-500 dark:text-indigo-400"
                            >
                              Re-authorize
                            </Link>
                          )}
                          <button
                            type="button"
                            className="btn-secondary px-3 py-1.5"
                            onClick={() => setDeleting(c)}
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
          {!connections.isPending && rows.length === 0 && (
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

      <DeleteConnectionDialog teamId={teamId} connection={deleting} onClose={() => setDeleting(null)} />
      <NewConnectionDialog teamId={teamId} open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}
