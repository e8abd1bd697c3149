import { readFileSync, statSync } from "node:fs";
import { Client } from "pg";
import { describeConnections } from "@/lib/db/client";
import { childPid } from "../bench/process-cpu";
import { httpInFlight } from "./http-in-flight";

// A test that runs out of time usually waits on something that never came: a run that did not
// end, a request with no answer. What the servers and the database were doing at that moment is
// gone by the time anyone reads the failure, so it is printed with it: the server's warnings and
// errors since the test began with its requests in flight and its last access lines, the
// connections of the server, its workflow worker and this worker process
// (lib/server/state-on-signal.ts), this process's fetch requests still without an answer
// (./http-in-flight.ts), and PostgreSQL's sessions and lock waits.

const logFile = () => process.env.E2E_SERVER_LOG;

/** Where the run's server log ends now: the report reads what came after. */
export function serverLogOffset(): number {
  try {
    return statSync(logFile()!).size;
  } catch {
    return 0;
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function serverLogSince(offset: number): string[] {
  try {
    return readFileSync(logFile()!).subarray(offset).toString("utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

async function postgresSessions(): Promise<string> {
  const url = process.env.DATABASE_URL ?? "";
  if (!/^postgres(ql)?:\/\//.test(url)) return "(SQLite)";
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    const { rows } = await client.query(
      `SELECT pid, state, wait_event_type AS wait_type, wait_event AS wait, pg_blocking_pids(pid) AS blocked_by,
              round(extract(epoch FROM now() - xact_start)) AS xact_s,
              round(extract(epoch FROM now() - state_change)) AS state_s,
              left(regexp_replace(query, '\\s+', ' ', 'g'), 240) AS query
         FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND state IS DISTINCT FROM 'idle'
        ORDER BY xact_start NULLS LAST`,
    );
    return rows.map((r) => JSON.stringify(r)).join("\n") || "(every session idle)";
  } catch (e) {
    return `(could not read: ${(e as Error).message})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The report printed for a test that timed out; `offset`: the server log's size when it began. */
export async function stallReport(offset: number): Promise<string> {
  const server = Number(process.env.E2E_SERVER_PID) || null;
  for (const pid of [server, childPid(server, "lib/server/workflow-worker-main.ts")])
    try {
      if (pid) process.kill(pid, "SIGUSR2");
    } catch {
      /* it is gone */
    }
  await pause(1_000);
  const lines = serverLogSince(offset);
  const notable = lines.filter((l) => /"level":"(warn|error)"|SIGUSR2|⨯|Error/.test(l));
  // The server's access lines of the test: did a request arrive, how long did it take?
  const requests = lines.filter((l) => l.includes('"msg":"request"'));
  return [
    "══ stall report (the test timed out) ══",
    `── server warnings and errors since the test began (${notable.length} of ${lines.length} lines) ──`,
    ...notable.slice(-60).map((l) => l.slice(0, 4_000)),
    `── the server's last requests since the test began (${Math.min(requests.length, 30)} of ${requests.length}) ──`,
    ...requests.slice(-30).map((l) => l.slice(0, 600)),
    "── this test process's fetch requests in flight ──",
    ...(httpInFlight().length ? httpInFlight() : ["(none)"]),
    "── PostgreSQL sessions of the run's database that are not idle ──",
    await postgresSessions(),
    "── this test worker's own connections ──",
    JSON.stringify(describeConnections()),
    "══ end of stall report ══",
  ].join("\n");
}
