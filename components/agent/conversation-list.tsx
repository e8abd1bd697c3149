"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { EmptyState } from "@/components/data-table/empty-state";
import { FilterText } from "@/components/data-table/filter-controls";
import { useUrlFilters } from "@/components/data-table/use-url-filters";
import { ErrorNote } from "@/components/ui/error-note";
import { When } from "@/components/workflows/relative-time";
import { OwnershipBadges } from "@/components/agent/badges";
import { conversationsOptions } from "@/lib/queries/agent";
import { plural } from "@/lib/text/plural";

const FILTER_KEYS = ["q"] as const;
const link = "font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300";
const muted = "text-zinc-600 dark:text-zinc-400";
const ROW_LINK = [
  "block px-4 py-3 hover:bg-zinc-50 dark:hover:bg-zinc-800/60",
  "focus-visible:outline focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600",
].join(" ");

/** The member's conversations and the team's shared ones, most recent first, searched by `?q=`. */
export function ConversationList({ teamId, userId }: { teamId: string; userId: string }) {
  const { filters, setFilter } = useUrlFilters(FILTER_KEYS);
  const q = filters.q ?? "";
  const query = useQuery(conversationsOptions(teamId, q));
  const conversations = query.data ?? [];

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="w-full sm:w-80">
          <FilterText
            label="Search"
            value={filters.q}
            placeholder="Words in a title or a message"
            mono={false}
            onChange={(v) => setFilter("q", v)}
          />
        </div>
        <p data-testid="conversations-count" aria-live="polite" className={`text-sm ${muted}`}>
          {query.isPending ? "Loading the conversations…" : plural(conversations.length, "conversation")}
        </p>
      </div>
      {query.isPending ? (
        <ul aria-hidden="true" className="card divide-y divide-zinc-200 dark:divide-zinc-800">
          {Array.from({ length: 4 }, (_, i) => (
            <li key={i} className="space-y-2 px-4 py-3">
              <div className="h-4 w-2/3 animate-pulse rounded bg-zinc-200 dark:bg-zinc-800" />
              <div className="h-3 w-1/3 animate-pulse rounded bg-zinc-200 dark:bg-zinc-800" />
            </li>
          ))}
        </ul>
      ) : query.error ? (
        <div className="space-y-3">
          <ErrorNote error={query.error} title="The conversations could not be loaded." />
          <button type="button" className="btn-secondary" onClick={() => void query.refetch()}>
            Try again
          </button>
        </div>
      ) : conversations.length === 0 ? (
        <div className="card">
          {q ? (
            <EmptyState title={`No conversation mentions “${q}”`}>
              <p>The search looks in titles and in every message the members wrote.</p>
            </EmptyState>
          ) : (
            <EmptyState title="No conversations yet">
              <p>
                Ask the agent about your team&apos;s connected accounts in plain words: it finds the operations that
                answer, runs the reads, and asks a person before anything is written. It works on your team&apos;s own
                model connection; every turn is logged and charged like the operations it runs.
              </p>
              <p className="mt-3">
                <Link href={`/${teamId}/agent/new`} className={link}>
                  Start a conversation
                </Link>
              </p>
            </EmptyState>
          )}
        </div>
      ) : (
        <ul aria-label="Conversations" className="card divide-y divide-zinc-200 dark:divide-zinc-800">
          {conversations.map((c) => {
            const mine = c.user.id === userId;
            return (
              <li key={c.id}>
                <Link href={`/${teamId}/agent/${c.id}`} className={ROW_LINK}>
                  <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
                    <span className="min-w-0 wrap-anywhere font-medium text-zinc-900 dark:text-zinc-100">
                      {c.title}
                    </span>
                    <OwnershipBadges mine={mine} shared={c.shared} />
                  </span>
                  <span className={`mt-1 flex flex-wrap gap-x-2 text-xs ${muted}`}>
                    <span className="font-mono">{c.model}</span>
                    <span aria-hidden="true">·</span>
                    <When ms={c.updated_at * 1000} past />
                    {!mine && (
                      <>
                        <span aria-hidden="true">·</span>
                        <span className="break-all">started by {c.user.email}</span>
                      </>
                    )}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
