// npm run bench:scale — issue 51's benchmark: does PostgreSQL carry a hundred million logs?
//
// Two fresh databases beside the one DATABASE_URL names (both dropped afterwards), migrated by the
// product and seeded the same way with INSERT … SELECT from generate_series (not the API):
//   - big:   BENCH_LOGS (20,000,000) logs and BENCH_LEDGER (20,000,000) ledger entries over 24
//            monthly partitions and 1,000 teams; the heavy team holds a quarter of each
//            (5,000,000 logs), and the oldest month holds 1,000,000 logs (the partition dropped below);
//   - small: 1,000,000 logs and 1,000,000 ledger entries, the same teams, months and shares.
// The partitions are the product's own (migration 0026 and `history maintain` make them); only the
// 24 months back are made here, as two years of the hourly job would have made them.
// Then, with a production server on each database, sampled alternately in one run (BENCH_SAMPLES
// rounds, every read on both servers in each round), for the heavy team's API key: the first page
// of GET /v1/logs, a page 2,000,000 rows deep (the same instant on the small database), each
// filter, a rare and a common search word, a log by id, and the ledger page; each read's p50 on the
// big database against the small one's (bar: ≤ 1.3×). The same reads' SQL with EXPLAIN ANALYZE
// gives planning time (bar: p50 < 2 ms) and the partitions a window-bounded page reads (bar: ≤ 2).
// Then retention: DELETE of the oldest month (rolled back) against detaching and dropping its
// partition (bar: < 1 s). Then ingest through the product's write path (recordOperations: one run
// of 3 logs and its charge per transaction, BENCH_INGEST_SECONDS per engine) on the big database
// and on a fresh SQLite file.
import http from "node:http";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { ensureBuild, freePort, freshPostgresDatabase, migrateWith, root, startServer } from "../support/server";
import { benchServerEnv } from "./workspace";
import { partitionName } from "@/lib/history/partition-bounds";

const LOGS = Number(process.env.BENCH_LOGS ?? 20_000_000);
const LEDGER = Number(process.env.BENCH_LEDGER ?? 20_000_000);
const SMALL = Number(process.env.BENCH_SMALL ?? 1_000_000);
const TEAMS = 1_000;
const MONTHS = 24;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 20);
const INGEST_SECONDS = Number(process.env.BENCH_INGEST_SECONDS ?? 20);
const DAY = 86_400;
// One log in this many mentions the rare search word.
const RARE_EVERY = 50_000;
// One signing secret for both servers, so one cursor is valid on both (and here, lib/db/pagination.ts).
const AUTH_SECRET = randomBytes(32).toString("base64url");
// The heavy team's owner signs in to read the dashboard's aggregates (the Overview, the Clients page).
const PASSWORD = "bench scale password";

type Pg = import("pg").Client;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};
const ms = (x: number) => x.toFixed(2);

async function pg(url: string): Promise<Pg> {
  const { Client } = await import("pg");
  const c = new Client({ connectionString: url });
  // The databases are dropped WITH (FORCE) at the end, whatever is still connected.
  c.on("error", () => {});
  await c.connect();
  return c;
}

function cli(env: NodeJS.ProcessEnv, args: string[]) {
  const r = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/cli/main.ts", ...args], {
    cwd: root,
    env,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`cli ${args.join(" ")} failed: ${r.stdout}${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, string>;
}

/** Month starts (Unix seconds, UTC): index 0 is the current month, 1 the one before, … */
function monthStart(back: number): number {
  const d = new Date();
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, 1) / 1000;
}

// 9 base-36 digits of milliseconds, as lib/security/ids.ts newOrderedId writes them.
const B36 = "'0123456789abcdefghijklmnopqrstuvwxyz'";
const base36 = (x: string) =>
  [8, 7, 6, 5, 4, 3, 2, 1, 0].map((k) => `substr(${B36}, ((${x}) / ${36 ** k}::bigint % 36)::int + 1, 1)`).join(" || ");

type World = {
  url: string;
  env: NodeJS.ProcessEnv;
  heavyTeam: string;
  key: string;
  seedSeconds: number;
  /** Who signs in to the dashboard (the heavy team's owner). */
  email?: string;
};

/** A migrated database with the teams, the 24 months of partitions, and `logs` logs and `ledger` entries. */
async function seed(label: string, url: string, logs: number, ledger: number): Promise<World> {
  const dir = join(root, "e2e", ".artifacts", `bench-scale-${label}-${Date.now()}`);
  // Two years of history are kept (the default 400 days would have the servers' hourly job drop the oldest months).
  const env = { ...process.env, ...benchServerEnv(url, dir), AUTH_SECRET, LOG_RETENTION_DAYS: "1000" };
  const t0 = performance.now();
  migrateWith(env);
  const team = cli(env, ["team", "create", "--name", "Heavy team", "--history-days", "800"]);
  const user = cli(env, ["user", "create", "--team", team.id, "--email", "heavy@patchbay.dev", "--role", "owner", "--password", PASSWORD]); // prettier-ignore
  const { key } = cli(env, ["apikey", "create", "--team", team.id, "--user", user.id]);
  // Two connections, one per core here: the months' rows, the two backfills and the indexes are
  // shared out between them (each takes the next statement when it is done with its last).
  const clients = await Promise.all([pg(url), pg(url)]);
  const [c] = clients;
  try {
    for (const k of clients) {
      await k.query("SET synchronous_commit = off");
      // A bulk load: the team foreign key's per-row checks are skipped (every team id below exists).
      await k.query("SET session_replication_role = replica");
      await k.query("SET maintenance_work_mem = '1GB'");
    }
    // The other 999 teams: copies of the heavy one.
    const { rows: cols } = await c.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'Team' AND column_name <> 'id'`,
    );
    const names = cols.map((r) => `"${r.column_name}"`).join(", ");
    await c.query(
      `INSERT INTO "Team" ("id", ${names}) SELECT 'team_b' || g, ${names} FROM "Team", generate_series(1, ${TEAMS - 1}) g WHERE "id" = $1`,
      [team.id],
    );
    // Two years of months, as the hourly job would have made them: the "before" partition gives
    // way to dated months, then comes back below the oldest.
    for (const table of ["OperationLog", "CreditLedgerEntry", "UsageAttribution"]) {
      await c.query(`DROP TABLE IF EXISTS "${table}_p_before"`);
      const { rows } = await c.query<{ n: string }>(
        `SELECT count(*) AS n FROM pg_inherits WHERE inhparent = '"${table}"'::regclass`,
      );
      for (let back = 1; back < MONTHS; back++) {
        const from = monthStart(back);
        const name = partitionName(table, from);
        await c.query(
          `CREATE TABLE IF NOT EXISTS "${name}" PARTITION OF "${table}" FOR VALUES FROM (${from}) TO (${monthStart(back - 1)})`,
        );
      }
      await c.query(
        `CREATE TABLE "${table}_p_before" PARTITION OF "${table}" FOR VALUES FROM (MINVALUE) TO (${monthStart(MONTHS - 1)})`,
      );
      void rows;
    }
    // Indexes are built once the rows are in (per partition), as a bulk load would.
    const indexes: string[] = [];
    for (const table of ["OperationLog", "CreditLedgerEntry", "UsageAttribution"]) {
      const { rows } = await c.query<{ indexname: string; indexdef: string }>(
        `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = $1 AND indexname NOT LIKE '%_pkey'`,
        [table],
      );
      for (const i of rows) {
        await c.query(`DROP INDEX "${i.indexname}"`);
        // A partitioned table's index reads "ON ONLY" (the parent alone): rebuilt, it must cover every partition.
        indexes.push(i.indexdef.replace(" ON ONLY ", " ON "));
      }
      const { rows: pk } = await c.query<{ def: string }>(
        `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = $1`,
        [`${table}_pkey`],
      );
      await c.query(`ALTER TABLE "${table}" DROP CONSTRAINT "${table}_pkey"`);
      indexes.unshift(`ALTER TABLE "${table}" ADD CONSTRAINT "${table}_pkey" ${pk[0].def}`);
    }
    const now = Math.floor(Date.now() / 1000);
    const inserts: string[] = [];
    // Each month's share; the oldest month holds 1/20 of the logs (1,000,000 of 20,000,000).
    const oldestShare = 0.05;
    for (let back = 0; back < MONTHS; back++) {
      const from = monthStart(back);
      const to = back === 0 ? now - 60 : monthStart(back - 1);
      const share = back === MONTHS - 1 ? oldestShare : (1 - oldestShare) / (MONTHS - 1);
      const n = Math.round(logs * share);
      const heavy = Math.round(n / 4);
      // Heavy team: a quarter of each month; the rest spread over the other teams.
      for (const [part, count, teamExpr, tag] of [
        ["heavy", heavy, `'${team.id}'`, "a"],
        ["others", n - heavy, `'team_b' || (1 + g % ${TEAMS - 1})`, "b"],
      ] as const) {
        if (count <= 0) continue;
        const t = `(${from} + (g::bigint * ${to - from}) / ${count})`;
        inserts.push(`
          INSERT INTO "OperationLog" ("id", "teamId", "operationId", "operationVersion", "status", "sourceType",
            "sourceId", "sourceRunId", "sourceName", "startedAt", "completedAt", "creditsUsed", "cacheHit",
            "input", "output", "metadata")
          SELECT 'log_' || ${base36(`${t} * 1000 + g % 1000`)} || '${tag}' || lpad(to_hex(g), 10, '0') || lpad(to_hex(${back}), 4, '0'),
            ${teamExpr},
            (ARRAY['ga4.run_report','google_ads.search','meta_ads.insights','shopify.orders','slack.post_message'])[1 + g % 5],
            1,
            (ARRAY['success','success','success','success','success','success','error','skipped','stop','success'])[1 + g % 10],
            (ARRAY['workflow','mcp','agent'])[1 + g % 3],
            'src_' || (g % 50),
            CASE WHEN g % 3 = 0 THEN 'run_${tag}${back}_' || (g / 5) END,
            'Source ' || (g % 50),
            ${t}, ${t} + 1, 1 + g % 3, false,
            '{"metric":"sessions","days":' || (g % 30) || '}',
            CASE WHEN g % 10 = 6 THEN '{"error":"The provider refused the token"}'
                 WHEN g % ${RARE_EVERY} = 17 THEN '{"rows":3,"note":"quasar campaign"}'
                 ELSE '{"rows":' || (g % 100) || ',"total":' || (g % 997) || '}' END,
            '{}'
          FROM generate_series(0, ${count - 1}) g`);
        void part;
      }
      const e = Math.round((ledger * n) / logs);
      const eh = Math.round(e / 4);
      for (const [count, teamExpr] of [
        [eh, `'${team.id}'`],
        [e - eh, `'team_b' || (1 + g % ${TEAMS - 1})`],
      ] as const) {
        if (count <= 0) continue;
        const t = `(${from} + (g::bigint * ${to - from}) / ${count})`;
        inserts.push(`
          INSERT INTO "CreditLedgerEntry" ("teamId", "creditsUsed", "creditsRemaining", "serviceType", "serviceId",
            "serviceName", "createdAt")
          SELECT ${teamExpr}, 1 + g % 5, 1000000 - g % 1000, (ARRAY['workflow','mcp','agent','copilot'])[1 + g % 4],
            'svc_' || (g % 40), 'Service ' || (g % 40), ${t}
          FROM generate_series(0, ${count - 1}) g`);
      }
    }
    await onAll(clients, inserts);
    console.log(`[bench] ${label}: logs and ledger in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    await onAll(clients, [
      // Each entry's usage attribution and the day rollup (UsageDay), as the product keeps them with
      // every charge: made here by the upgrade's own statements (migration 0027 fills both for entries
      // written before them).
      backfill("0027_usage_days", "-- Ledger entries from before"),
      // The logs' hour counts (LogHour), which triggers keep as logs are written; the triggers do not
      // fire in this bulk load (session_replication_role = replica): migration 0029's own count.
      backfill("0029_log_hours", "-- The logs so far"),
    ]);
    console.log(`[bench] ${label}: rows in ${((performance.now() - t0) / 1000).toFixed(0)} s; building indexes…`);
    // The primary keys first: each takes its table's exclusive lock, which the other indexes would wait for.
    await onAll(
      clients,
      indexes.filter((d) => d.startsWith("ALTER TABLE")),
    );
    await onAll(
      clients,
      indexes.filter((d) => !d.startsWith("ALTER TABLE")),
    );
    await onAll(clients, ['VACUUM ANALYZE "OperationLog"', 'VACUUM ANALYZE "CreditLedgerEntry", "UsageAttribution"']);
    await c.query("VACUUM ANALYZE");
    const seedSeconds = (performance.now() - t0) / 1000;
    const { rows: size } = await c.query<{ s: string }>(
      "SELECT pg_size_pretty(pg_database_size(current_database())) s",
    );
    console.log(`[bench] ${label}: seeded in ${seedSeconds.toFixed(0)} s; database ${size[0].s}`);
    return { url, env, heavyTeam: team.id, key, seedSeconds };
  } finally {
    for (const k of clients) await k.end();
  }
}

/** Runs the statements on the clients at once, each client taking the next when it is done with its last. */
async function onAll(clients: Pg[], statements: string[]) {
  let next = 0;
  await Promise.all(
    clients.map(async (k) => {
      while (next < statements.length) await k.query(statements[next++]);
    }),
  );
}

/** A PostgreSQL migration's backfill: its statements from the comment `from` on. */
function backfill(migration: string, from: string): string {
  const text = readFileSync(join(root, "prisma", "migrations", "postgresql", migration, "migration.sql"), "utf8");
  if (!text.includes(from)) throw new Error(`${migration} has no "${from}"`);
  return text.slice(text.indexOf(from));
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function get(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on("error", reject);
  });
}

type Read = { name: string; path: (w: World, deep: Deep) => string; window?: boolean; session?: boolean };
type Deep = { cursor: string; logId: string };

const READS: Read[] = [
  { name: "first page", path: () => "/v1/logs?limit=25", window: true },
  { name: "page 2,000,000 rows deep", path: (_, d) => `/v1/logs?limit=25&cursor=${d.cursor}` },
  { name: "status=error", path: () => "/v1/logs?status=error&limit=25", window: true },
  { name: "source_type=mcp", path: () => "/v1/logs?source_type=mcp&limit=25", window: true },
  { name: "operation_id", path: () => "/v1/logs?operation_id=shopify.orders&limit=25", window: true },
  { name: "source_id", path: () => "/v1/logs?source_id=src_7&limit=25", window: true },
  {
    name: "a day, 6 months back",
    path: () => `/v1/logs?started_after=${monthStart(6)}&started_before=${monthStart(6) + DAY}&limit=25`,
    window: true,
  },
  { name: "search: rare word", path: () => "/v1/logs?q=quasar&limit=25", window: true },
  { name: "search: common word", path: () => "/v1/logs?q=refused&limit=25", window: true },
  { name: "log by id", path: (_, d) => `/v1/logs/${d.logId}` },
  { name: "ledger page", path: () => "/v1/credits/logs?limit=25", window: true },
  { name: "Overview: daily usage", path: () => "/api/dashboard/usage", session: true },
  { name: "Clients page", path: () => "/api/dashboard/clients?limit=50", session: true },
];

/** The heavy team's owner signed in (next-auth's credentials flow): the headers of a dashboard request. */
async function signIn(base: string, w: World): Promise<Record<string, string>> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair.indexOf("=");
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
  };
  keep(csrf);
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie() },
    body: new URLSearchParams({ csrfToken, email: w.email ?? "heavy@patchbay.dev", password: PASSWORD, json: "true" }),
  });
  keep(res);
  if (![...jar.keys()].some((k) => k.includes("session-token"))) throw new Error(`sign-in failed: ${res.status}`);
  return { cookie: cookie(), "x-patchbay-team": w.heavyTeam };
}

/** The position 2,000,000 of the heavy team's rows deep on the big database, the same instant on both. */
async function deepPosition(big: World, small: World): Promise<{ big: Deep; small: Deep }> {
  const { encodeCursor } = await import("@/lib/db/pagination");
  const c = await pg(big.url);
  const depth = Math.min(2_000_000, Math.round(LOGS / 4 / 2));
  const { rows } = await c.query<{ startedAt: string; id: string }>(
    `SELECT "startedAt", "id" FROM "OperationLog" WHERE "teamId" = $1 ORDER BY "startedAt" DESC, "id" DESC OFFSET $2 LIMIT 1`,
    [big.heavyTeam, depth],
  );
  await c.end();
  const at = Number(rows[0].startedAt);
  const s = await pg(small.url);
  const { rows: near } = await s.query<{ startedAt: string; id: string }>(
    `SELECT "startedAt", "id" FROM "OperationLog" WHERE "teamId" = $1 AND "startedAt" <= $2 ORDER BY "startedAt" DESC, "id" DESC LIMIT 1`,
    [small.heavyTeam, at],
  );
  await s.end();
  process.env.AUTH_SECRET = big.env.AUTH_SECRET;
  const cursorFor = (_: World, p: { at: number; id: string }) => encodeCursor("logs", {}, p);
  console.log(`[bench] deep page at ${new Date(at * 1000).toISOString()} (${depth.toLocaleString("en")} rows deep)`);
  return {
    big: { cursor: cursorFor(big, { at, id: rows[0].id }), logId: rows[0].id },
    small: { cursor: cursorFor(small, { at: Number(near[0].startedAt), id: near[0].id }), logId: near[0].id },
  };
}

/** Planning time and the partitions a page reads, from EXPLAIN ANALYZE of the page's SQL. */
async function explain(w: World, where: string, params: unknown[]) {
  const c = await pg(w.url);
  const sql = `SELECT l.* FROM "OperationLog" l
    LEFT JOIN "Workflow" wf ON wf."id" = l."sourceId" AND wf."teamId" = l."teamId" AND l."sourceType" = 'workflow'
    LEFT JOIN "McpServer" m ON m."id" = l."sourceId" AND m."teamId" = l."teamId" AND l."sourceType" = 'mcp'
    WHERE l."teamId" = $1 AND ${where} ORDER BY l."startedAt" DESC, l."id" DESC LIMIT 26`;
  const planning: number[] = [];
  let partitions = 0;
  for (let i = 0; i < 15; i++) {
    const { rows } = await c.query<{ "QUERY PLAN": [{ "Planning Time": number; Plan: unknown }] }>(
      `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`,
      [w.heavyTeam, ...params],
    );
    const plan = rows[0]["QUERY PLAN"][0];
    planning.push(plan["Planning Time"]);
    const read = new Set<string>();
    const walk = (node: Record<string, unknown>) => {
      if (typeof node["Relation Name"] === "string" && (node["Actual Loops"] as number) > 0)
        read.add(node["Relation Name"]);
      for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
    };
    walk(plan.Plan as Record<string, unknown>);
    partitions = [...read].filter((r) => r.startsWith("OperationLog_p")).length;
  }
  await c.end();
  return { planning: pct(planning, 0.5), partitions };
}

async function ingest(env: NodeJS.ProcessEnv, seconds: number): Promise<number> {
  // A child process per engine: the product's db client binds to DATABASE_URL at first use.
  const r = spawnSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "e2e/bench/scale-ingest.ts", String(seconds)],
    { cwd: root, env, encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`ingest failed: ${r.stderr}`);
  return Number(JSON.parse(r.stdout.trim().split("\n").pop() as string).runsPerSecond);
}

async function main() {
  const base = process.env.DATABASE_URL ?? "";
  if (!base.startsWith("postgres")) throw new Error("bench:scale runs on PostgreSQL: set DATABASE_URL=postgresql://…");
  await ensureBuild();
  // BENCH_KEEP=1 keeps the seeded databases and records them; BENCH_REUSE=1 reads them again
  // (a rerun after a change to the product, without the twenty minutes of seeding).
  const kept = join(root, "e2e", ".artifacts", "bench-scale-kept.json");
  const reuse = process.env.BENCH_REUSE
    ? (JSON.parse(readFileSync(kept, "utf8")) as Record<"big" | "small", World>)
    : undefined;
  const keep = Boolean(process.env.BENCH_KEEP || reuse);
  const bigDb = reuse
    ? { url: reuse.big.url, drop: async () => {} }
    : await freshPostgresDatabase(base, "patchbay_bench_scale_big", { throwaway: true });
  const smallDb = reuse
    ? { url: reuse.small.url, drop: async () => {} }
    : await freshPostgresDatabase(base, "patchbay_bench_scale_small", { throwaway: true });
  const out: string[] = [];
  const servers: { stop: () => Promise<void> }[] = [];
  try {
    // Kept databases are brought up to this checkout's migrations first.
    if (reuse) for (const w of [reuse.small, reuse.big]) migrateWith(w.env);
    const small = reuse?.small ?? (await seed("small", smallDb.url, SMALL, SMALL));
    const big = reuse?.big ?? (await seed("big", bigDb.url, LOGS, LEDGER));
    if (process.env.BENCH_KEEP && !reuse) {
      mkdirSync(dirname(kept), { recursive: true });
      writeFileSync(kept, JSON.stringify({ big, small }));
    }
    const deep = await deepPosition(big, small);
    const start = async (w: World) => {
      const port = await freePort();
      const s = await startServer(port, { ...w.env, PORT: String(port), APP_URL: `http://127.0.0.1:${port}` });
      servers.push(s);
      return s.baseUrl;
    };
    const urls = { big: await start(big), small: await start(small) };
    const sessions = { big: await signIn(urls.big, big), small: await signIn(urls.small, small) };
    const worlds = { big, small };
    const deeps = { big: deep.big, small: deep.small };
    const times: Record<string, { big: number[]; small: number[] }> = {};
    for (const r of READS) times[r.name] = { big: [], small: [] };
    const sample = async (r: Read, side: "big" | "small") => {
      const w = worlds[side];
      const t = performance.now();
      const res = await get(
        urls[side] + r.path(w, deeps[side]),
        r.session ? sessions[side] : { authorization: `Bearer ${w.key}` },
      );
      const took = performance.now() - t;
      if (res.status !== 200) throw new Error(`${r.name} on ${side}: ${res.status} ${res.body.slice(0, 300)}`);
      return took;
    };
    for (const r of READS)
      for (const side of ["big", "small"] as const) for (let i = 0; i < 3; i++) await sample(r, side);
    for (let round = 0; round < SAMPLES; round++) {
      for (const r of READS) {
        const order = round % 2 ? (["big", "small"] as const) : (["small", "big"] as const);
        for (const side of order) times[r.name][side].push(await sample(r, side));
      }
    }
    const window = `l."startedAt" >= $2 AND l."startedAt" <= $3`;
    const now = Math.floor(Date.now() / 1000);
    // A page's first query covers its window's part in the newest partition (lib/logs/list-logs.ts,
    // newestPart); only a page that part does not fill asks for the rest of the 800 days.
    const range = [monthStart(0), now + 300];
    const whole = [now - 800 * DAY, now + 300];
    out.push(
      `# bench:scale — PostgreSQL: ${LOGS.toLocaleString("en")} logs and ${LEDGER.toLocaleString("en")} ledger entries (big) against ${SMALL.toLocaleString("en")} of each (small), ${TEAMS} teams, ${MONTHS} monthly partitions; the heavy team holds a quarter of each`,
      "",
      `Seeding: big ${big.seedSeconds.toFixed(0)} s, small ${small.seedSeconds.toFixed(0)} s (INSERT … SELECT from generate_series, indexes built after).`,
      ...(reuse
        ? []
        : [
            `- ${big.seedSeconds < 20 * 60 ? "PASS" : "FAIL"} seeding the big database < 20 minutes (${big.seedSeconds.toFixed(0)} s)`,
          ]),
      "",
      `Reads through the API (heavy team's key, history window 800 days), ${SAMPLES} samples per side, alternating; ms p50:`,
      "",
      "| read | big | small | big / small |",
      "|---|---|---|---|",
    );
    const lines: string[] = [];
    for (const r of READS) {
      const b = pct(times[r.name].big, 0.5);
      const s = pct(times[r.name].small, 0.5);
      out.push(`| ${r.name} | ${ms(b)} | ${ms(s)} | ${(b / s).toFixed(2)} |`);
      lines.push(`- ${b / s <= 1.3 ? "PASS" : "FAIL"} ${r.name}: big / small ${(b / s).toFixed(2)} ≤ 1.3`);
    }
    out.push("", ...lines, "");
    const plans = [
      ["first page", window, range],
      ["status=error", `${window} AND l."status" = $4`, [...range, "error"]],
      ["a day, 6 months back", window, [monthStart(6), monthStart(6) + DAY]],
    ] as const;
    // For the record: the same first page over the whole window, as a page the newest partition
    // does not fill asks for it.
    const rest = await explain(big, window, whole);
    out.push("EXPLAIN ANALYZE of the same pages' SQL on the big database:", "");
    for (const [name, where, params] of plans) {
      const e = await explain(big, where, [...params]);
      out.push(
        `- ${e.planning < 2 ? "PASS" : "FAIL"} ${name}: planning p50 ${ms(e.planning)} ms < 2`,
        `- ${e.partitions <= 2 ? "PASS" : "FAIL"} ${name}: ${e.partitions} partition(s) read ≤ 2`,
      );
    }
    out.push(
      `- (the first page over all 800 days, the second query of a page its newest partition does not fill: planning p50 ${ms(rest.planning)} ms, ${rest.partitions} partition(s) read)`,
    );
    for (const s of servers) await s.stop();
    servers.length = 0;

    // Retention: the oldest month, about 1,000,000 rows, by DELETE (rolled back) and by dropping its partition.
    const c = await pg(big.url);
    const from = monthStart(MONTHS - 1);
    const partition = partitionName("OperationLog", from);
    const { rows: cnt } = await c.query<{ n: string }>(`SELECT count(*) n FROM "${partition}"`);
    await c.query("BEGIN");
    if (keep) await c.query("SAVEPOINT before_delete");
    let t = performance.now();
    await c.query(`DELETE FROM "OperationLog" WHERE "startedAt" >= $1 AND "startedAt" < $2`, [
      from,
      monthStart(MONTHS - 2),
    ]);
    const deleteMs = performance.now() - t;
    if (keep) await c.query("ROLLBACK TO SAVEPOINT before_delete");
    else await c.query("ROLLBACK");
    t = performance.now();
    await c.query(`ALTER TABLE "OperationLog" DETACH PARTITION "${partition}"`);
    await c.query(`DROP TABLE "${partition}"`);
    const dropMs = performance.now() - t;
    // Kept: the drop is rolled back too (its commit, where the files are unlinked, is not timed then).
    if (keep) await c.query("ROLLBACK");
    await c.end();
    out.push(
      "",
      `Retention of the oldest month (${Number(cnt[0].n).toLocaleString("en")} logs): DELETE ${ms(deleteMs)} ms (rolled back), detach and drop ${ms(dropMs)} ms.`,
      `- ${dropMs < 1000 ? "PASS" : "FAIL"} dropping the partition < 1 s (${(deleteMs / dropMs).toFixed(0)}× faster than the DELETE)`,
    );

    // Ingest through the product's write path.
    const pgRate = await ingest(big.env, INGEST_SECONDS);
    const sqliteDir = join(root, "e2e", ".artifacts", `bench-scale-sqlite-${Date.now()}`);
    const sqliteEnv = { ...process.env, ...benchServerEnv(`file:${join(sqliteDir, "bench.db")}`, sqliteDir) };
    migrateWith(sqliteEnv);
    const sqliteRate = await ingest(sqliteEnv, INGEST_SECONDS);
    out.push(
      "",
      `Ingest through recordOperations (one run: 3 logs and its charge in one transaction; 4 at a time, ${INGEST_SECONDS} s each): PostgreSQL (big database) ${pgRate.toFixed(0)} runs/s (${(pgRate * 3).toFixed(0)} logs/s), SQLite ${sqliteRate.toFixed(0)} runs/s (${(sqliteRate * 3).toFixed(0)} logs/s).`,
    );
  } catch (e) {
    console.error(e);
    throw e;
  } finally {
    for (const s of servers) await s.stop();
    if (keep) console.log(`[bench] kept: ${bigDb.url} ${smallDb.url}`);
    else {
      await bigDb.drop();
      await smallDb.drop();
    }
  }
  const report = out.join("\n");
  console.log(`\n${report}`);
  writeFileSync(join(root, "e2e", ".artifacts", "bench-scale.md"), report + "\n");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
