"use client";

import { useDeferredValue, useId, useMemo, useState } from "react";
import { useConnections, useConnectionTypes } from "@/lib/queries/connections";
import type { McpServerConnectionJson } from "@/lib/schemas/dashboard";
import { TypeLogo } from "@/components/connections/type-logo";
import { ErrorNote, SkeletonBlock } from "@/components/overview/section-states";

const PrivateBadge = () => (
  <span className="shrink-0 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800 dark:bg-amber-900/50 dark:text-amber-200">
    Private
  </span>
);

type Choice = { id: string; type: string; name: string | null; isPrivate: boolean; hidden: boolean };

/**
 * The connections an MCP server may use, as a searchable checkbox list. `includePrivate` is
 * false when the server belongs to someone else: the viewer's private connections are not
 * the server owner's to use, and the API would refuse them. Permitted connections the viewer
 * cannot see stay in the list (nameless) so saving does not silently drop them.
 */
export function McpConnectionPicker({
  team,
  selected,
  onChange,
  includePrivate,
  permitted = [],
}: {
  team: string;
  selected: string[];
  onChange: (ids: string[]) => void;
  includePrivate: boolean;
  permitted?: McpServerConnectionJson[];
}) {
  const connections = useConnections(team, {});
  const types = useConnectionTypes(team);
  const [search, setSearch] = useState("");
  const needle = useDeferredValue(search).trim().toLowerCase();
  const searchId = useId();
  const typeByName = useMemo(() => new Map((types.data ?? []).map((t) => [t.type, t])), [types.data]);

  const choices = useMemo<Choice[]>(() => {
    const visible = (connections.data ?? [])
      .filter((c) => c.id && (includePrivate || !c.is_private || selected.includes(c.id)))
      .map((c) => ({ id: c.id!, type: c.type, name: c.display_name ?? null, isPrivate: c.is_private, hidden: false }));
    const seen = new Set(visible.map((c) => c.id));
    const hidden = permitted
      .filter((p) => !p.visible_to_you && !seen.has(p.id))
      .map((p) => ({ id: p.id, type: p.type, name: null, isPrivate: true, hidden: true }));
    return [...visible.sort((a, b) => (a.name ?? a.id).localeCompare(b.name ?? b.id)), ...hidden];
    // `selected` only matters for the first render's private choices; re-filtering on every tick
    // would hide a box being unticked.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `selected` is left out on purpose
  }, [connections.data, includePrivate, permitted]);

  const shown = needle
    ? choices.filter((c) =>
        `${c.name ?? ""} ${typeByName.get(c.type)?.name ?? c.type} ${c.id}`.toLowerCase().includes(needle),
      )
    : choices;
  const toggle = (id: string, on: boolean) => onChange(on ? [...selected, id] : selected.filter((s) => s !== id));

  if (connections.isPending) return <SkeletonBlock className="h-32" />;
  if (connections.isError)
    return (
      <ErrorNote what="the team's connections" error={connections.error} onRetry={() => void connections.refetch()} />
    );
  if (!choices.length) {
    return (
      <p
        data-testid="no-connections-to-pick"
        className="rounded-lg border border-dashed border-zinc-300 p-3 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400"
      >
        This team has no connections yet. Add one on the Connections page; the server can be given access to it
        afterwards.
      </p>
    );
  }
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">
        Allowed connections{" "}
        <span className="font-normal text-zinc-500 dark:text-zinc-400">
          ({selected.length} of {choices.length} selected)
        </span>
      </legend>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        The most any MCP request may use; a client can narrow it per request, never widen it.
      </p>
      <div>
        <label htmlFor={searchId} className="sr-only">
          Search connections
        </label>
        <input
          id={searchId}
          type="search"
          className="input"
          placeholder="Search connections"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      <ul
        className="max-h-64 divide-y divide-zinc-100 overflow-y-auto rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
        aria-label="Connections to allow"
      >
        {shown.map((c) => {
          const typeName = typeByName.get(c.type)?.name ?? c.type;
          const label = c.hidden ? `A private connection of the server's owner (${typeName})` : (c.name ?? c.id);
          return (
            <li key={c.id}>
              <label className="flex cursor-pointer items-center gap-3 px-3 py-2 text-sm hover:bg-zinc-50 dark:hover:bg-zinc-800/60">
                <input
                  type="checkbox"
                  className="size-4 shrink-0 accent-indigo-600"
                  checked={selected.includes(c.id)}
                  onChange={(e) => toggle(c.id, e.target.checked)}
                />
                <TypeLogo logo={typeByName.get(c.type)?.logo} size={20} />
                <span className="min-w-0 flex-1">
                  <span
                    className={`block truncate ${c.hidden ? "italic text-zinc-500 dark:text-zinc-400" : "font-medium"}`}
                  >
                    {label}
                  </span>
                  {!c.hidden && (
                    <span className="block truncate text-xs text-zinc-500 dark:text-zinc-400">{typeName}</span>
                  )}
                </span>
                {c.isPrivate && <PrivateBadge />}
              </label>
            </li>
          );
        })}
        {!shown.length && (
          <li className="px-3 py-2 text-sm text-zinc-500 dark:text-zinc-400">
            No connection matches “{search.trim()}”.
          </li>
        )}
      </ul>
    </fieldset>
  );
}
