import "server-only";
import { prepared } from "@/lib/db/read";
import { decodeCursor, encodeCursor, toPage } from "@/lib/db/pagination";
import { historyWindow, type TeamWindow } from "@/lib/logs/history-window";
import { logJsonText, selectLogs } from "@/lib/logs/log-to-json";
import { JsonText } from "@/lib/http/json";
import type { ListLogsQuery } from "@/lib/schemas/logs";
import { sql, type Expression, type SqlBool } from "kysely";
import { databaseTarget } from "@/lib/db/engine";
import { partitionInterval } from "@/lib/config/retention";
import { intervalStart } from "@/lib/history/partition-bounds";
import { logSearchArgs, logSearchCondition, newestLogs, SEARCH_SCAN, type LogSearchArgs } from "@/lib/logs/log-search";

const FUTURE_SKEW_SECONDS = 300;

type PageArgs = Partial<LogSearchArgs> & {
  teamId: string;
  from: number;
  to: number;
  sourceType?: string;
  status?: string;
  operationId?: string;
  sourceId?: string;
  sourceRunId?: string;
  /** With a search (q, its texts above): the member it searches for, whose reading rights apply. */
  viewerId?: string;
  /** The keyset position after which the page starts. */
  afterAt?: number;
  afterId?: string;
  take: number;
  /** A search's first try: only the logs no older than the `scan + 1`-th newest under the filters (SEARCH_SCAN). */
  scan?: number;
  /** A search's second try (`1`): the index's whole answer, sorted, never a walk of the keyset index. */
  sorted?: number;
};

/** The page's conditions as SQL on `l`, for the bounded scan's subquery (the same as findPage's own). */
function conditions(a: PageArgs): Expression<SqlBool>[] {
  const c = [sql<SqlBool>`l."teamId" = ${a.teamId}`, sql<SqlBool>`l."startedAt" >= ${a.from}`];
  c.push(sql`l."startedAt" <= ${a.to}`);
  if (a.sourceType !== undefined) c.push(sql`l."sourceType" = ${a.sourceType}`);
  if (a.status !== undefined) c.push(sql`l."status" = ${a.status}`);
  if (a.operationId !== undefined) c.push(sql`l."operationId" = ${a.operationId}`);
  if (a.sourceId !== undefined) c.push(sql`l."sourceId" = ${a.sourceId}`);
  if (a.sourceRunId !== undefined) c.push(sql`l."sourceRunId" = ${a.sourceRunId}`);
  if (a.afterAt !== undefined && a.afterId !== undefined)
    c.push(sql`l."startedAt" <= ${a.afterAt} AND (l."startedAt" < ${a.afterAt} OR l."id" < ${a.afterId})`);
  return c;
}

const findPage = prepared((a: PageArgs) => {
  // The sorted try on PostgreSQL: `|| ''` keeps every btree index (each begins with the team) from
  // serving the page, so it is the GIN index's answer whatever the planner guesses. A generic plan
  // of a month's stretch guessed few rows there and walked the team's every log of that month
  // (206,000 of them, 0.6 s for a rare word).
  const team =
    a.sorted !== undefined && databaseTarget().engine === "postgresql"
      ? sql<string>`l."teamId" || ''`
      : sql.ref<string>("l.teamId");
  let q = selectLogs()
    .where(sql<SqlBool>`${team} = ${a.teamId}`)
    .where("l.startedAt", ">=", a.from);
  q = q.where("l.startedAt", "<=", a.to);
  if (a.sourceType !== undefined) q = q.where("l.sourceType", "=", a.sourceType);
  if (a.status !== undefined) q = q.where("l.status", "=", a.status);
  if (a.operationId !== undefined) q = q.where("l.operationId", "=", a.operationId);
  if (a.sourceId !== undefined) q = q.where("l.sourceId", "=", a.sourceId);
  if (a.sourceRunId !== undefined) q = q.where("l.sourceRunId", "=", a.sourceRunId);
  if (a.searchAll !== undefined)
    q = q.where(logSearchCondition(a as LogSearchArgs<unknown>, a.viewerId, a.scan !== undefined));
  if (a.scan !== undefined) q = q.where(newestLogs(conditions(a), a.scan, a.from));
  if (a.afterAt !== undefined && a.afterId !== undefined) {
    const { afterAt, afterId } = a;
    // `startedAt <= at` bounds the index range; the OR only decides ties on that second.
    q = q
      .where("l.startedAt", "<=", afterAt)
      .where((eb) => eb.or([eb("l.startedAt", "<", afterAt), eb("l.id", "<", afterId)]));
  }
  // `+ 0`: the same order, read from the index's answer rather than by walking the keyset index.
  const at = a.sorted !== undefined ? sql`l."startedAt" + 0` : sql`l."startedAt"`;
  return q.orderBy(at, "desc").orderBy("l.id", "desc").limit(a.take);
});

/**
 * PostgreSQL plans a query for every partition its window spans (the heavy team's 800-day window:
 * 25 partitions, 3 ms of planning for a page whose rows all come from the newest). So a page asks
 * first for the newest partition's part of its window alone: where that part fills it, it is the
 * page. The start of that part, or undefined when there is nothing to gain (SQLite has no
 * partitions; the window may lie within one).
 */
function newestPart(args: PageArgs): number | undefined {
  if (databaseTarget().engine !== "postgresql") return undefined;
  const split = intervalStart(Math.min(args.to, args.afterAt ?? Infinity), partitionInterval());
  return split > args.from ? split : undefined;
}

/** A page without a search: the newest partition's part first, then the rest of the window (newestPart). */
async function newestPartFirst(args: PageArgs) {
  const split = newestPart(args);
  if (split === undefined) return findPage(args);
  const newest = await findPage({ ...args, from: split });
  if (newest.length >= args.take) return newest;
  // startedAt is whole seconds: the rest of the window ends the second before the split.
  const rest = await findPage({ ...args, to: split - 1, take: args.take - newest.length });
  return [...newest, ...rest];
}

/**
 * A page of a search: each try is a whole answer of its own. The newest logs first, in the newest
 * partition's part of the window (newestPart), then in the whole window: a page they fill is the
 * right page, since nothing newer was skipped. Else the index's answer, sorted (SEARCH_SCAN): on
 * PostgreSQL one stretch of partitions at a time, newest first, each twice as long as the one
 * before (1, 1, 2, 4 … intervals), until the page is full. A rare word (one log in 50,000) then
 * reads the few partitions that fill a page of a big team, not every partition of its window
 * (25 GIN lookups and their rows of every team, 39 ms at 20,000,000 logs against 25 ms at
 * 1,000,000), and a team with fewer matches than a page reads each partition once, as before.
 */
async function searchPage(args: PageArgs) {
  const scan = { ...args, scan: SEARCH_SCAN - 1 };
  const split = newestPart(args);
  if (split !== undefined) {
    const rows = await findPage({ ...scan, from: split });
    if (rows.length >= args.take) return rows;
  }
  const rows = await findPage(scan);
  if (rows.length >= args.take) return rows;
  if (split === undefined) return findPage({ ...args, sorted: 1 });
  const interval = partitionInterval();
  const found: Awaited<ReturnType<typeof findPage>> = [];
  // [from, to]: the stretch read next; startedAt is whole seconds, so the next one ends the second before.
  let to = args.to;
  let from = split;
  for (let length = 1; ; length = Math.max(2, length * 2)) {
    const stretch = await findPage({ ...args, sorted: 1, from, to, take: args.take - found.length });
    found.push(...stretch);
    if (found.length >= args.take || from <= args.from) return found;
    to = from - 1;
    for (let k = 0; k < length && from > args.from; k++) from = intervalStart(from - 1, interval);
    from = Math.max(from, args.from);
  }
}

/** A LogPage, newest first by (started_at, id); every filter is an index prefix of the keyset. */
export async function listLogs(team: TeamWindow, viewerId: string, query: ListLogsQuery) {
  const { limit, cursor, ...filters } = query;
  const { cutoff } = historyWindow(team);
  const after = cursor ? decodeCursor("logs", filters, cursor) : undefined;
  const args: PageArgs = {
    teamId: team.id,
    from: Math.max(cutoff, filters.started_after ?? 0),
    // Bounded above too, so that on PostgreSQL the page reads only the partitions of its window
    // (the ones made ahead are empty): no log starts in the future, give or take a clock's skew.
    to: Math.min(filters.started_before ?? Infinity, Math.floor(Date.now() / 1000) + FUTURE_SKEW_SECONDS),
    sourceType: filters.source_type,
    status: filters.status,
    operationId: filters.operation_id,
    sourceId: filters.source_id,
    sourceRunId: filters.source_run_id,
    ...(filters.q !== undefined && { viewerId, ...logSearchArgs(team.id, filters.q) }),
    afterAt: after?.at,
    afterId: after === undefined ? undefined : String(after.id),
    take: limit + 1,
  };
  const rows = args.searchAll !== undefined ? await searchPage(args) : await newestPartFirst(args);
  const page = toPage(
    rows,
    limit,
    (r) => logJsonText(r, viewerId),
    (r) => ({ at: r.startedAt, id: r.id }),
    (p) => encodeCursor("logs", filters, p),
  );
  return new JsonText(
    `{"data":[${page.data.join(",")}],"has_more":${page.has_more},"next_cursor":${JSON.stringify(page.next_cursor)}}`,
  );
}
