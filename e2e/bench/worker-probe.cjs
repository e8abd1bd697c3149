// A diagnostic preload for bench:workflows' loop case (BENCH_PROBE=1), loaded into the server and its
// workflow worker through NODE_OPTIONS=--require. It changes nothing the product does:
//   - counts the SQL statements each process sends, by verb and table (better-sqlite3's statements
//     and exec, pg's Client#query: every statement Prisma's adapters and lib's reads send), or by
//     their text (its first 220 characters) with BENCH_PROBE_SQL=1;
//   - in the workflow worker only, with BENCH_PROBE_CPU=1, records a CPU profile between two marks.
// On SIGUSR2 a process writes what it counted so far to BENCH_PROBE_DIR/probe-<pid>-<n>.json (n =
// 1, 2, …) and, when profiling, starts its profile (odd n) or stops it and writes
// BENCH_PROBE_DIR/worker-<pid>-<n>.cpuprofile (even n). The bench diffs two marks around one run.
const { writeFileSync } = require("node:fs");
const { join } = require("node:path");

const dir = process.env.BENCH_PROBE_DIR;
const counts = Object.create(null);
const keyOf = (sql) => {
  const s = String(sql ?? "")
    .trim()
    .replace(/\s+/g, " ");
  const verb = (s.split(" ")[0] || "?").toUpperCase();
  const table = /\b(?:FROM|INTO|UPDATE)\s+(?:["`]?\w+["`]?\.)?["`]?(\w+)["`]?/i.exec(s);
  if (process.env.BENCH_PROBE_SQL === "1") return s.slice(0, 220);
  return table ? `${verb} ${table[1]}` : verb;
};
const bump = (sql) => {
  const k = keyOf(sql);
  counts[k] = (counts[k] || 0) + 1;
};

const fromApp = (name) => require(require.resolve(name, { paths: [process.cwd()] }));

try {
  const Database = fromApp("better-sqlite3");
  const scratch = new Database(":memory:");
  const statement = Object.getPrototypeOf(scratch.prepare("SELECT 1"));
  scratch.close();
  for (const method of ["run", "get", "all", "iterate"]) {
    const original = statement[method];
    statement[method] = function (...args) {
      bump(this.source);
      return original.apply(this, args);
    };
  }
  const exec = Database.prototype.exec;
  Database.prototype.exec = function (sql) {
    bump(sql);
    return exec.call(this, sql);
  };
} catch {
  /* no SQLite driver in this process */
}
try {
  const pg = fromApp("pg");
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (config, ...rest) {
    bump(typeof config === "string" ? config : config && config.text);
    return query.call(this, config, ...rest);
  };
} catch {
  /* no pg in this process */
}

const isWorker = process.argv.some((a) => a.endsWith("lib/server/workflow-worker-main.ts"));
let session = null;
let marks = 0;
if (dir)
  process.on("SIGUSR2", () => {
    marks++;
    const n = marks;
    writeFileSync(
      join(dir, `probe-${process.pid}-${n}.json`),
      JSON.stringify({ role: isWorker ? "worker" : "server", counts }),
    );
    if (!isWorker || process.env.BENCH_PROBE_CPU !== "1") return;
    const inspector = require("node:inspector");
    if (n % 2 === 1) {
      session = new inspector.Session();
      session.connect();
      session.post("Profiler.enable", () =>
        session.post("Profiler.setSamplingInterval", { interval: 200 }, () => session.post("Profiler.start")),
      );
    } else if (session) {
      const s = session;
      session = null;
      s.post("Profiler.stop", (err, result) => {
        if (!err) writeFileSync(join(dir, `worker-${process.pid}-${n}.cpuprofile`), JSON.stringify(result.profile));
        s.disconnect();
      });
    }
  });
