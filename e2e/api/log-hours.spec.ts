import { test, expect, seed } from "../fixtures";
import { sessionAs } from "../support/session";
import { teamWithClient } from "../support/usage-team";

// Issue 51: the operations and errors of GET /v1/usage, the Clients page's last 7 days and a
// client's usage CSV read whole hours from the logs' hour counts (LogHour), kept by triggers on
// every insert, status change and delete, and only the part hours at their ranges' edges from the
// logs. Every one of them must still be the logs' own count, whatever the edges, on both engines.

const PASSWORD = "correct horse battery staple";
const HOUR = 3_600;
const DAY = 86_400;

type Counts = { operations: number; errors: number };

test("the logs' hour counts follow every insert, status change and delete, and every count read from them is the logs' own", async () => {
  test.setTimeout(120_000);
  const { team, api, acme, loose } = await teamWithClient(PASSWORD);

  // Logs over the last 50 hours: on acme (successes, errors, and steps that start and end later),
  // on the loose key, and on no connection; each written in its own transaction.
  const every = (step: number, offset = 0) =>
    Array.from({ length: Math.floor((50 * HOUR) / step) }, (_, i) => offset + i * step);
  const logs = async (connectionId: string | null, status: string, startedAgo: number[]) =>
    await seed<{ ids: string[]; now: number }>("logs", { team: team.id, connectionId, status, startedAgo });
  const { now } = await logs(acme, "success", every(1_337, 11));
  const acmeErrors = await logs(acme, "error", every(3_001, 5));
  const started = await logs(acme, "start", [40, 7_000, 30_000, 100_000, 150_000]);
  await logs(loose, "success", every(2_203, 3));
  const none = await logs(null, "error", every(4_001, 17));

  // A step's start log ends in an error, another in success; an error is corrected; two logs go.
  for (const id of started.ids.slice(0, 3))
    await seed("rewriteLog", { id, status: "error", output: { error: "boom" } });
  await seed("rewriteLog", { id: started.ids[3], status: "success", output: { ok: true } });
  await seed("rewriteLog", { id: acmeErrors.ids[2], status: "success", output: { ok: true } });
  await seed("rewriteLog", { id: acmeErrors.ids[5], delete: true });
  await seed("rewriteLog", { id: none.ids[0], delete: true });

  const stored = await seed<{ counted: Record<string, number[]>; logs: Record<string, number[]> }>("logHoursAndLogs", {
    team: team.id,
  });
  expect(Object.keys(stored.logs).length).toBeGreaterThan(100);
  expect(stored.counted).toEqual(stored.logs);

  const sqlCounts = async (from: number, to: number) =>
    seed<Record<string, Counts & { credits: number }>>("usageByConnectionSql", { team: team.id, from, to });
  const counts = (rows: { key: string | null; operations: number; errors: number }[]) =>
    Object.fromEntries(
      rows
        .filter((r) => r.operations || r.errors)
        .map((r) => [String(r.key), { operations: r.operations, errors: r.errors }]),
    );

  // Ranges whose edges fall on the hour, inside hours, inside one hour, across one boundary.
  const hour = Math.floor(now / HOUR) * HOUR;
  const ranges: [number, number][] = [
    [hour - 30 * HOUR, hour - 2 * HOUR],
    [hour - 30 * HOUR + 600, hour - 2 * HOUR - 900],
    [hour - 5 * HOUR + 100, hour - 5 * HOUR + 3_000],
    [hour - 5 * HOUR + 100, hour - 4 * HOUR + 200],
    [now - 2 * DAY - 17, now - 5],
    [now - 7 * DAY, now + 1],
  ];
  for (const [from, to] of ranges) {
    const res = await api.get(`/v1/usage?group_by=connection_id&from=${from}&to=${to}&limit=100`);
    expect(res.status(), await res.text()).toBe(200);
    const want = Object.fromEntries(
      Object.entries(await sqlCounts(from, to))
        .filter(([, c]) => c.operations || c.errors)
        .map(([k, c]) => [k, { operations: c.operations, errors: c.errors }]),
    );
    expect(Object.keys(want).length, `[${from}, ${to})`).toBeGreaterThan(0);
    expect(counts((await res.json()).data), `[${from}, ${to})`).toEqual(want);
  }

  // Per client: acme is its connection's counts; the loose key and no connection are the null group.
  const [from, to] = ranges[1];
  const sql = await sqlCounts(from, to);
  const byClient = await api.get(`/v1/usage?group_by=external_id&from=${from}&to=${to}&limit=100`);
  expect(counts((await byClient.json()).data)).toEqual({
    acme: { operations: sql[acme].operations, errors: sql[acme].errors },
    null: {
      operations: sql[loose].operations + sql.null.operations,
      errors: sql[loose].errors + sql.null.errors,
    },
  });

  const session = await sessionAs(team.users[0].email, PASSWORD, team.id);
  try {
    // The Clients page's last 7 days: every log is newer than that.
    const week = await sqlCounts(now - 7 * DAY, now + 1);
    const clients = await (await session.get("/api/dashboard/clients?limit=50")).json();
    const row = (clients.data as { external_id: string | null; operations_7d: number; errors_7d: number }[]).find(
      (c) => c.external_id === "acme",
    );
    expect(row).toMatchObject({ operations_7d: week[acme].operations, errors_7d: week[acme].errors });

    // acme's usage CSV: its days' operations and errors add up to the logs' in a range with part hours.
    const csv = await session.get(`/api/dashboard/clients/acme/usage.csv?from=${from}&to=${to}`);
    expect(csv.status(), await csv.text()).toBe(200);
    const [header, ...lines] = (await csv.text()).trim().split("\r\n");
    const col = header.split(",");
    const cells = lines.map((l) => l.split(","));
    const sum = (name: string) => cells.reduce((a, c) => a + Number(c[col.indexOf(name)]), 0);
    expect(cells.length).toBeGreaterThanOrEqual(2);
    expect({ operations: sum("operations"), errors: sum("errors") }).toEqual({
      operations: sql[acme].operations,
      errors: sql[acme].errors,
    });
  } finally {
    await session.dispose();
  }
});
