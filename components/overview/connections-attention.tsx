"use client";

import Link from "next/link";
import { useConnectionFacts } from "@/lib/queries/connections";
import { ErrorNote, SkeletonBlock } from "@/components/overview/section-states";
import { plural } from "@/lib/text/plural";

const link = "font-medium text-indigo-600 hover:underline dark:text-indigo-400";

/**
 * How many connections need attention, each count a link to the Connections list filtered to
 * them. Attention means not healthy (a refused credential or a provider that cannot be reached:
 * something fails now); stale and duplicate connections are counted beside it as tidying up,
 * since nothing is broken by them.
 */
export function ConnectionsAttention({ team }: { team: string }) {
  const facts = useConnectionFacts(team);
  if (facts.isPending) return <SkeletonBlock className="h-10" />;
  if (facts.isError)
    return <ErrorNote what="the connections" error={facts.error} onRetry={() => void facts.refetch()} />;
  const all = facts.data;
  if (all.length === 0)
    return (
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        No connections yet.{" "}
        <Link href={`/${team}/connections`} className={link}>
          Add one
        </Link>
      </p>
    );
  const attention = all.filter((f) => f.health !== "healthy").length;
  const stale = all.filter((f) => f.stale).length;
  const duplicates = all.filter((f) => f.duplicate_of.length > 0).length;
  return (
    <div className="flex flex-wrap items-baseline gap-x-6 gap-y-2 text-sm" data-testid="connections-attention">
      {attention > 0 ? (
        <Link
          href={`/${team}/connections?health=attention`}
          className="text-base font-semibold text-rose-700 hover:underline dark:text-rose-300"
        >
          {plural(attention, "connection needs", "connections need")} attention
        </Link>
      ) : (
        <span className="text-base font-semibold text-emerald-700 dark:text-emerald-300">
          {all.length === 1
            ? "The connection is healthy"
            : `All ${all.length.toLocaleString("en")} connections are healthy`}
        </span>
      )}
      {stale > 0 && (
        <Link href={`/${team}/connections?stale=1`} className={link}>
          {plural(stale, "stale connection")}
        </Link>
      )}
      {duplicates > 0 && (
        <Link href={`/${team}/connections?duplicates=1`} className={link}>
          {plural(duplicates, "duplicate")}
        </Link>
      )}
    </div>
  );
}
