// `npm run bench:log-search`: GET /v1/logs?q=… on a large table, through listLogs (the route's own
// query and JSON, in process) on a fresh database (SQLite; DATABASE_URL=postgresql://… for a fresh
// PostgreSQL one). BENCH_LOGS (default 1,000,000) logs: half in one heavy team, the rest over 99
// other teams. The heavy team holds a word that is rare in it (20 logs) and common elsewhere
// (every 10th log of the others), a word in 10 % of its logs, and a word in no log. Sampled
// alternately beside the same page without q (the floor a search adds to); p50 and p95 in ms.
// BENCH_SEEDED=1 with DATABASE_URL measures a database an earlier run seeded.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROWS = Number(process.env.BENCH_LOGS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const HEAVY = "team_benchHeavy000000000000";
const BATCH = 20_000;

const VOCAB = Array.from({ length: 2000 }, (_, i) => `w${i.toString(36)}x${((i * 7919) % 997).toString(36)}`);
const OPS = ["ga4.run_report", "slack.post_message", "sheets.read_range", "hubspot.list_contacts", "flow.stop"];

function* rows(now: number) {
  const span = 29 * 86_400;
  let rareLeft = 20;
  for (let start = 0; start < ROWS; start += BATCH) {
    const batch: unknown[][] = [];
    for (let i = start; i < Math.min(ROWS, start + BATCH); i++) {
      const heavy = i % 2 === 0;
      const team = heavy ? HEAVY : TEAMS[1 + (i % 99)];
      const words = [VOCAB[(i * 31) % VOCAB.length], VOCAB[(i * 17 + 5) % VOCAB.length]];
      if (heavy && i % 20 === 0) words.push("commonword");
      if (!heavy && i % 10 === 1) words.push("xylophone");
      if (heavy && rareLeft > 0 && i % 25_000 === 0) {
        words.push("xylophone");
        rareLeft--;
      }
      const t = now - span + Math.floor((i * span) / ROWS);
      const output = JSON.stringify({ rows: i % 50, note: words.join(" "), detail: "x".repeat(i % 200) });
      batch.push([
        `log_${i.toString(36).padStart(12, "0")}`,
        team,
        OPS[i % OPS.length],
        i % 10 === 6 ? "error" : "success",
        i % 3 === 0 ? "workflow" : "mcp",
        "Bench source",
        t,
        t + 1,
        '{"property":"properties/123"}',
        output,
      ]);
    }
    yield batch;
  }
}
const COLUMNS = [
  "id",
  "teamId",
  "operationId",
  "status",
  "sourceType",
  "sourceName",
  "startedAt",
  "completedAt",
  "input",
  "output",
];
const PG_TYPES = ["text", "text", "text", "text", "text", "text", "int8", "int8", "text", "text"];

const TEAMS = [HEAVY, ...Array.from({ length: 99 }, (_, i) => `team_bench${String(i).padStart(17, "0")}`)];
const TEAM_ROW = `INSERT INTO "Team" ("id", "name", "creditsLimit", "billingPeriodStart", "billingPeriodEnd")`;

async function seed(url: string, now: number) {
  const t0 = performance.now();
  if (url.startsWith("file:")) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the native driver only for SQLite
    const Database = require("better-sqlite3") as typeof import("better-sqlite3");
    const db = new Database(url.slice(5));
    db.pragma("synchronous = OFF");
    const team = db.prepare(
      `${TEAM_ROW} VALUES (?, 'Bench', 1000, '2026-01-01T00:00:00.000+00:00', '2099-01-01T00:00:00.000+00:00')`,
    );
    for (const id of TEAMS) team.run(id);
    const insert = db.prepare(
      `INSERT INTO "OperationLog" (${COLUMNS.map((c) => `"${c}"`).join(",")}) VALUES (${COLUMNS.map(() => "?").join(",")})`,
    );
    for (const batch of rows(now)) db.transaction(() => batch.forEach((r) => insert.run(...r)))();
    db.exec("ANALYZE");
    db.close();
  } else {
    const { Client } = await import("pg");
    const client = new Client({ connectionString: url });
    await client.connect();
    for (const id of TEAMS)
      await client.query(`${TEAM_ROW} VALUES ($1, 'Bench', 1000, now(), now() + interval '1 year')`, [id]);
    const text = `INSERT INTO "OperationLog" (${COLUMNS.map((c) => `"${c}"`).join(",")}) SELECT * FROM unnest(${PG_TYPES.map((t, i) => `$${i + 1}::${t}[]`).join(",")})`;
    for (const batch of rows(now))
      await client.query(
        text,
        COLUMNS.map((_, c) => batch.map((r) => r[c])),
      );
    await client.query("VACUUM ANALYZE");
    await client.end();
  }
  return (performance.now() - t0) / 1000;
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

async function main() {
  const url = process.env.DATABASE_URL ?? `file:${join(mkdtempSync(join(tmpdir(), "pb-log-search-")), "bench.db")}`;
  process.env.DATABASE_URL = url;
  const { migrate } = await import("@/lib/db/migrate");
  await migrate();
  const now = Math.floor(Date.now() / 1000);
  // BENCH_SEEDED=1 with DATABASE_URL: measure a database an earlier run seeded (its rows stay in the window for days).
  if (process.env.BENCH_SEEDED !== "1") {
    console.log(`seeding ${ROWS.toLocaleString("en")} logs (${url.split(":")[0]})…`);
    console.log(`seeded in ${(await seed(url, now)).toFixed(1)} s (search index kept by the write path)`);
  }
  const { listLogs } = await import("@/lib/logs/list-logs");
  const team = { id: HEAVY, plan: "team", historyDays: null };
  const cases: [string, Record<string, string | number>][] = [
    ["no q (first page, the floor)", {}],
    ["q rare in the team, common elsewhere (20 matches)", { q: "xylophone" }],
    ["q in 10 % of the team's logs", { q: "commonword" }],
    ["q in 10 %, with status=error", { q: "commonword", status: "error" }],
    ["q matching nothing", { q: "nosuchword" }],
    ["q two words (operation + body)", { q: "ga4 commonword" }],
    ["q a two-letter prefix", { q: "w1" }],
  ];
  const times = cases.map(() => [] as number[]);
  const counts = cases.map(() => 0);
  for (let r = 0; r < ROUNDS; r++)
    for (const [i, [, params]] of cases.entries()) {
      const t0 = performance.now();
      const page = await listLogs(team, "user_bench", { limit: 25, ...params });
      times[i].push(performance.now() - t0);
      counts[i] = (JSON.parse(page.text) as { data: unknown[] }).data.length;
    }
  console.log(`\n${ROUNDS} rounds, alternating; heavy team ${(ROWS / 2).toLocaleString("en")} logs`);
  for (const [i, [name]] of cases.entries())
    console.log(
      `${name.padEnd(52)} p50 ${pct(times[i], 0.5).toFixed(2).padStart(8)} ms  p95 ${pct(times[i], 0.95).toFixed(2).padStart(8)} ms  rows ${counts[i]}`,
    );
  process.exit(0);
}

void main();
