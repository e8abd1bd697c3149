import { retentionSummary } from "@/lib/history/retention-summary";
import { plural } from "@/lib/text/plural";

const days = (n: number) => plural(n, "day");

/**
 * What the team's history keeps and for how long (issue 51): read-only, for every member. The
 * numbers are the server's settings (LOG_RETENTION_DAYS, LEDGER_RETENTION_DAYS,
 * LOG_PARTITION_INTERVAL) and the team's history window.
 */
export async function DataRetentionSection({ team }: { team: string }) {
  const r = await retentionSummary(team);
  return (
    <div className="space-y-4 text-sm">
      <dl className="grid gap-x-6 gap-y-1 sm:grid-cols-[12rem_1fr] sm:gap-y-3">
        <dt className="font-medium">Operation logs</dt>
        <dd className="mb-2 text-zinc-700 sm:mb-0 dark:text-zinc-300">
          Kept <strong data-testid="retention-log-days">{days(r.logDays)}</strong>, then deleted. The API and the
          dashboard show the last <strong data-testid="retention-history-days">{days(r.historyDays)}</strong> (
          {r.customWindow ? (
            "this team's history window"
          ) : (
            <>
              the <span className="capitalize">{r.plan}</span> plan&apos;s history window
            </>
          )}
          ); older logs are stored but not returned.
          {r.historyDays > r.logDays && (
            <> The window is longer than the logs are kept: it shows at most {days(r.logDays)}.</>
          )}
        </dd>
        <dt className="font-medium">Credit ledger and usage</dt>
        <dd className="mb-2 text-zinc-700 sm:mb-0 dark:text-zinc-300" data-testid="retention-ledger">
          {r.ledgerDays === null ? (
            <>
              <strong>Kept for good</strong>: the ledger is the record of every charge, and the usage by connection and
              client is read from it.
            </>
          ) : (
            <>
              Kept <strong data-testid="retention-ledger-days">{days(r.ledgerDays)}</strong>, then deleted with the
              usage by connection and client of each entry.
            </>
          )}
        </dd>
        <dt className="font-medium">How it is deleted</dt>
        <dd className="mb-2 text-zinc-700 sm:mb-0 dark:text-zinc-300" data-testid="retention-how">
          {r.partition === null ? (
            <>Expired rows are deleted in small batches by the server&apos;s periodic maintenance.</>
          ) : (
            <>
              History is stored in <strong>{PARTITION_LABEL[r.partition]}</strong> partitions, and retention drops a
              partition whole once all of it has expired: a log is kept at least {days(r.logDays)} and at most one{" "}
              {r.partition} longer.
            </>
          )}
        </dd>
      </dl>
      <p className="text-zinc-600 dark:text-zinc-400">
        These are the server&apos;s settings (CONFIGURATION.md): whoever runs this deployment changes them.
      </p>
    </div>
  );
}

const PARTITION_LABEL = { month: "monthly", week: "weekly", day: "daily" } as const;
