import "server-only";

// Operation logs counted per team, UTC hour and connection (model LogHour), kept by triggers on
// "OperationLog" (migration 0029_log_hours) with every insert, status change and delete. The
// counts of GET /v1/usage, the Clients page's last 7 days and a client's usage CSV read whole
// hours from them and only the part hours at their ranges' edges from the logs: a few hundred
// rows for a week, whatever the team logs in it (the heavy team of bench:scale: 235,000).

const HOUR = 3_600;

/**
 * A team's logs in [from, to) (Unix seconds) as rows of (at, connectionId, operations, errors) —
 * `at` an hour's start for a counted hour, the log's startedAt otherwise; a connection's rows may
 * repeat (one per writing transaction until the history job merges them) — for a query to group
 * and sum (`?` placeholders, turned into the engine's by `placeholders`).
 */
export function logCountRows(teamId: string, from: number, to: number) {
  const firstWhole = Math.ceil(from / HOUR);
  const endWhole = Math.floor(to / HOUR);
  const logs = (a: number, b: number) => ({
    sql: `SELECT l."startedAt" AS "at", l."connectionId" AS "connectionId", 1 AS "operations",
        CASE WHEN l."status" = 'error' THEN 1 ELSE 0 END AS "errors"
      FROM "OperationLog" l WHERE l."teamId" = ? AND l."startedAt" >= ? AND l."startedAt" < ?`,
    params: [teamId, a, b],
  });
  // Within one hour, or across a single hour boundary: the logs themselves.
  if (firstWhole >= endWhole) {
    const only = logs(from, to);
    return { sql: `(${only.sql})`, params: only.params };
  }
  const parts = [
    {
      sql: `SELECT CAST(h."hour" AS BIGINT) * ${HOUR} AS "at", NULLIF(h."connectionId", '') AS "connectionId",
          h."operations" AS "operations", h."errors" AS "errors"
        FROM "LogHour" h WHERE h."teamId" = ? AND h."hour" >= ? AND h."hour" < ?`,
      params: [teamId, firstWhole, endWhole] as unknown[],
    },
  ];
  if (from < firstWhole * HOUR) parts.push(logs(from, firstWhole * HOUR));
  if (endWhole * HOUR < to) parts.push(logs(endWhole * HOUR, to));
  return {
    sql: `(${parts.map((p) => p.sql).join("\n    UNION ALL\n    ")})`,
    params: parts.flatMap((p) => p.params),
  };
}
