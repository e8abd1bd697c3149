// The benchmark's reference for the hot reads: the same work each request does, done in this
// process with the bare driver and hand-written SQL — no query builder, no ORM, no framework.
// better-sqlite3 prepared statements (prepared once) on SQLite; one pg client on PostgreSQL.
// The work: the API-key join, the page's keyset SQL with the parents' current names joined in,
// the cursor's check and creation, and the same JSON out (the stored JSON columns spliced in as
// text, as the API does: parsing them would be work the API no longer does).
import { createHash } from "node:crypto";
import { decodeCursor, encodeCursor } from "@/lib/db/pagination";
import { historyWindow } from "@/lib/logs/history-window";
import { agentSourceName } from "@/lib/text/conversation-name";

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion
type Query = (sql: string, params: unknown[]) => Promise<Row[]>;

async function connect(databaseUrl: string): Promise<{ query: Query; close: () => Promise<void> }> {
  if (databaseUrl.startsWith("file:")) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for a SQLite database: the native driver stays unloaded on PostgreSQL
    const Database = require("better-sqlite3") as typeof import("better-sqlite3");
    const conn = new Database(databaseUrl.slice("file:".length), { readonly: true });
    // Rows as arrays made objects in JS, the driver's fastest way to a row object (the API's too).
    const statements = new Map<string, { stmt: import("better-sqlite3").Statement; columns: string[] }>();
    return {
      query: async (sql, params) => {
        let p = statements.get(sql);
        if (!p) {
          const stmt = conn.prepare(sql).raw(true);
          statements.set(sql, (p = { stmt, columns: stmt.columns().map((c) => c.name) }));
        }
        const { columns } = p;
        return (p.stmt.all(...params) as unknown[][]).map((values) => {
          const row: Row = {};
          for (let i = 0; i < columns.length; i++) row[columns[i]] = values[i];
          return row;
        });
      },
      close: async () => void conn.close(),
    };
  }
  const { Client, types } = await import("pg");
  const client = new Client({
    connectionString: databaseUrl,
    types: {
      getTypeParser: (oid: number, format?: "text" | "binary") =>
        oid === (types.builtins.INT8 as number)
          ? Number
          : oid === (types.builtins.TIMESTAMP as number)
            ? (t: string) => Date.parse(`${t.replace(" ", "T")}Z`)
            : types.getTypeParser(oid, format),
    },
  });
  await client.connect();
  const numbered = new Map<string, { name: string; text: string }>();
  return {
    // The same SQL text on both engines: `?` placeholders numbered for PostgreSQL, each text a
    // named statement (parsed once), as the product's are (lib/db/pg-named-statements.ts).
    query: async (sql, params) => {
      let statement = numbered.get(sql);
      if (statement === undefined) {
        let n = 0;
        statement = { name: `bare_${numbered.size}`, text: sql.replace(/\?/g, () => `$${++n}`) };
        numbered.set(sql, statement);
      }
      return (await client.query({ ...statement, values: params })).rows;
    },
    close: () => client.end(),
  };
}

const KEY_SQL = `SELECT k."id" AS "keyId", k."revokedAt", t."id" AS "teamId", t."plan", t."historyDays", u."id" AS "userId", u."email"
  FROM "ApiKey" k JOIN "Team" t ON t."id" = k."teamId" JOIN "User" u ON u."id" = k."createdByUserId" WHERE k."hash" = ?`;

const LOG_SELECT = `SELECT l."id", l."operationId", l."operationVersion", l."status", l."sourceType", l."sourceId", l."sourceRunId",
    COALESCE(w."name", m."name", l."sourceName") AS "sourceName", l."userId", l."userEmail", l."startedAt", l."completedAt",
    l."creditsUsed", l."cacheHit", l."input", l."output", l."metadata", l."privateToUserId",
    c."userId" AS "conversationUserId", c."shared" AS "conversationShared"
  FROM "OperationLog" l
  LEFT JOIN "Workflow" w ON w."id" = l."sourceId" AND w."teamId" = l."teamId" AND l."sourceType" = 'workflow'
  LEFT JOIN "McpServer" m ON m."id" = l."sourceId" AND m."teamId" = l."teamId" AND l."sourceType" = 'mcp'
  LEFT JOIN "AgentConversation" c ON c."id" = l."sourceId" AND c."teamId" = l."teamId" AND l."sourceType" = 'agent'`;

/** The conversation's owner and sharing, which decide who reads an agent source's title. */
const access = (r: Row) => ({
  conversationUserId: r.conversationUserId as string | null,
  conversationShared: r.conversationShared as boolean | number | null,
});

const HIDDEN = JSON.stringify({
  redacted: "This ran on a teammate's private connection: only its owner reads what it sent and received.",
});
const logJson = (r: Row, viewerId: string) => {
  const hidden = r.privateToUserId !== null && r.privateToUserId !== viewerId;
  return `${JSON.stringify({
    id: r.id,
    operation_id: r.operationId,
    operation_version: r.operationVersion,
    status: r.status,
    source: {
      type: r.sourceType,
      id: r.sourceId,
      run_id: r.sourceRunId,
      name: r.sourceType === "agent" ? agentSourceName(r.sourceName, access(r), viewerId) : r.sourceName,
    },
    user: { id: r.userId, email: r.userEmail },
    started_at: r.startedAt,
    completed_at: r.completedAt,
    credits_used: r.creditsUsed,
    cache_hit: Boolean(r.cacheHit),
  }).slice(
    0,
    -1,
  )},"input":${hidden ? "null" : (r.input ?? "null")},"output":${hidden ? HIDDEN : (r.output ?? "null")},"metadata":${r.metadata}}`;
};

export type LogFilters = { status?: string; source_run_id?: string; started_after?: number; started_before?: number };

export async function bareDriver(databaseUrl: string) {
  const { query, close } = await connect(databaseUrl);

  async function authenticate(authorization: string) {
    const key = /^Bearer (\S+)$/.exec(authorization)![1];
    const [row] = await query(KEY_SQL, [createHash("sha256").update(key).digest("hex")]);
    if (!row || row.revokedAt !== null) throw new Error("bench key refused");
    return row;
  }

  return {
    close,
    async logsPage(authorization: string, limit: number, filters: LogFilters, cursor?: string) {
      const principal = await authenticate(authorization);
      const { cutoff } = historyWindow({
        id: principal.teamId,
        plan: principal.plan,
        historyDays: principal.historyDays,
      });
      const where = [`l."teamId" = ?`, `l."startedAt" >= ?`];
      const params: unknown[] = [principal.teamId, Math.max(cutoff, filters.started_after ?? 0)];
      const and = (clause: string, value: unknown) => {
        where.push(clause);
        params.push(value);
      };
      if (filters.started_before !== undefined) and(`l."startedAt" <= ?`, filters.started_before);
      if (filters.status !== undefined) and(`l."status" = ?`, filters.status);
      if (filters.source_run_id !== undefined) and(`l."sourceRunId" = ?`, filters.source_run_id);
      if (cursor) {
        const after = decodeCursor("logs", filters, cursor);
        where.push(`l."startedAt" <= ?`, `(l."startedAt" < ? OR l."id" < ?)`);
        params.push(after.at, after.at, after.id);
      }
      const rows = await query(
        `${LOG_SELECT} WHERE ${where.join(" AND ")} ORDER BY l."startedAt" DESC, l."id" DESC LIMIT ?`,
        [...params, limit + 1],
      );
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      const hasMore = rows.length > limit;
      const next = hasMore ? encodeCursor("logs", filters, { at: last.startedAt, id: last.id }) : null;
      return `{"data":[${page.map((r) => logJson(r, principal.userId)).join(",")}],"has_more":${hasMore},"next_cursor":${JSON.stringify(next)}}`;
    },
    async log(authorization: string, id: string) {
      const principal = await authenticate(authorization);
      const [row] = await query(`${LOG_SELECT} WHERE l."id" = ? AND l."teamId" = ?`, [id, principal.teamId]);
      if (
        !row ||
        row.startedAt <
          historyWindow({ id: principal.teamId, plan: principal.plan, historyDays: principal.historyDays }).cutoff
      )
        throw new Error("bench log not found");
      return logJson(row, principal.userId);
    },
    async connections(authorization: string) {
      const principal = await authenticate(authorization);
      const rows = await query(
        `SELECT "id", "type", "displayName", "externalId", "ownerUserId", "createdAt", "updatedAt" FROM "Connection"
         WHERE "teamId" = ? AND ("ownerUserId" IS NULL OR "ownerUserId" = ?) ORDER BY "createdAt" DESC, "id" DESC`,
        [principal.teamId, principal.userId],
      );
      const ms = (v: number | string) => (typeof v === "number" ? v : Date.parse(v));
      return JSON.stringify(
        rows.map((r) => ({
          id: r.id,
          type: r.type,
          display_name: r.displayName,
          external_id: r.externalId,
          is_private: r.ownerUserId !== null,
          created_at: ms(r.createdAt),
          updated_at: ms(r.updatedAt),
        })),
      );
    },
    async creditLogsPage(authorization: string, limit: number) {
      const principal = await authenticate(authorization);
      const rows = await query(
        `SELECT e."id", e."creditsUsed", e."creditsRemaining", e."serviceType", e."serviceId", e."serviceName", e."userId", e."userEmail", e."createdAt",
           c."userId" AS "conversationUserId", c."shared" AS "conversationShared"
         FROM "CreditLedgerEntry" e
         LEFT JOIN "AgentConversation" c ON c."id" = e."serviceId" AND c."teamId" = e."teamId" AND e."serviceType" = 'agent'
         WHERE e."teamId" = ? ORDER BY e."createdAt" DESC, e."id" DESC LIMIT ?`,
        [principal.teamId, limit + 1],
      );
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      const hasMore = rows.length > limit;
      return JSON.stringify({
        data: page.map((r) => ({
          id: r.id,
          credits_used: r.creditsUsed,
          credits_remaining: r.creditsRemaining,
          service: {
            type: r.serviceType,
            id: r.serviceId,
            name:
              r.serviceType === "agent" ? agentSourceName(r.serviceName, access(r), principal.userId) : r.serviceName,
          },
          user: { id: r.userId, email: r.userEmail },
          created_at: r.createdAt,
        })),
        has_more: hasMore,
        next_cursor: hasMore ? encodeCursor("credit-logs", {}, { at: last.createdAt, id: last.id }) : null,
      });
    },
  };
}
