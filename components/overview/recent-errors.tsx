"use client";

import Link from "next/link";
import type { LogJson } from "@/lib/schemas/logs";
import { LocalTime } from "@/components/time/local-time";

/**
 * The error payload's message when it has one (`{message}`, `{error}` or `{error: {message}}`, as
 * the producers write them), for a one-line summary; JSON only when there is no message.
 */
function errorSummary(output: unknown): string | null {
  if (!output) return null;
  if (typeof output === "string") return output;
  const o = output as { message?: unknown; error?: unknown };
  const nested = o.error && typeof o.error === "object" ? (o.error as { message?: unknown }).message : undefined;
  const text =
    typeof o.message === "string"
      ? o.message
      : typeof o.error === "string"
        ? o.error
        : typeof nested === "string"
          ? nested
          : JSON.stringify(output);
  return text.length > 140 ? `${text.slice(0, 140)}…` : text;
}

export function RecentErrors({ team, logs }: { team: string; logs: LogJson[] }) {
  if (logs.length === 0) {
    return (
      <p data-testid="no-recent-errors" className="text-sm text-zinc-600 dark:text-zinc-400">
        No errors in the log history. Failed workflow nodes and MCP tool calls will show up here.
      </p>
    );
  }
  return (
    <ul data-testid="recent-errors" className="divide-y divide-zinc-200 dark:divide-zinc-800">
      {logs.map((log) => (
        <li key={log.id}>
          <Link
            href={`/${team}/logs?status=error&operation_id=${encodeURIComponent(log.operation_id)}&log=${encodeURIComponent(log.id)}`}
            className="block rounded-md px-2 py-2 hover:bg-zinc-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-indigo-600 dark:hover:bg-zinc-800/60"
          >
            <span className="flex flex-wrap items-baseline justify-between gap-x-3">
              <span className="font-mono text-sm font-medium text-rose-700 dark:text-rose-400">{log.operation_id}</span>
              <span className="text-xs text-zinc-500 dark:text-zinc-400">
                <LocalTime seconds={log.started_at} />
              </span>
            </span>
            <span className="block text-xs text-zinc-600 dark:text-zinc-400">
              {log.source.type}
              {log.source.name ? ` · ${log.source.name}` : ""}
              {log.user.email ? ` · ${log.user.email}` : ""}
            </span>
            {errorSummary(log.output) && (
              <span className="mt-0.5 block truncate text-xs text-zinc-700 dark:text-zinc-300">
                {errorSummary(log.output)}
              </span>
            )}
          </Link>
        </li>
      ))}
    </ul>
  );
}
