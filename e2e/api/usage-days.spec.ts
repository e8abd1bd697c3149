import { test, expect, seed } from "../fixtures";
import { sessionAs } from "../support/session";
import { teamWithClient } from "../support/usage-team";

// Issue 51, item 6: the Overview's daily usage, a connection's spend, the Clients page's credits
// and GET /v1/usage read whole days from the day rollup (UsageDay) kept with each charge, and the
// part days at their ranges' edges from the attribution rows. Every one of them must still be the
// ledger's sum to the credit, whatever its range's edges, on both engines.

const PASSWORD = "correct horse battery staple";
const DAY = 86_400;
const TYPES = ["workflow", "agent", "copilot", "mcp"] as const;

type Row = { at: number; type: string; connectionId: string | null; credits: number };

test("every aggregate read from the day rollup is the ledger's sum, at whole days and at part days", async () => {
  test.setTimeout(120_000);
  const { team, api, acme, loose } = await teamWithClient(PASSWORD);
  // A period that began 12.3 days ago: its first day is a part day.
  const period = await seed<{ start: number; end: number }>("billingPeriod", { team: team.id, startedDaysAgo: 12.3 });

  // A charge every 7 hours over 40 days, of every service type, split across acme, the loose key
  // and no connection, with two at the same second.
  const charges = Array.from({ length: 138 }, (_, i) => {
    const credits = 1 + (i % 5);
    const split = i % 3;
    return {
      credits,
      type: TYPES[i % 4],
      ago: i * 7 * 3600 + 30,
      attribution:
        split === 0
          ? [{ connectionId: acme, credits }]
          : split === 1
            ? [
                { connectionId: loose, credits: 1 },
                { connectionId: acme, credits: credits - 1 },
              ]
            : [{ connectionId: null, credits }],
    };
  });
  charges.push({ ...charges[3] });
  const { now } = await seed<{ now: number }>("charges", { team: team.id, charges });
  const stored = await seed<{
    rows: Row[];
    days: { day: number; type: string; connectionId: string; credits: number }[];
  }>("usageDaysAndRows", { team: team.id });
  expect(stored.rows.length).toBeGreaterThan(150);

  // The rollup is the attribution rows grouped by day, type and connection, exactly.
  const grouped: Record<string, number> = {};
  for (const r of stored.rows) {
    const k = `${Math.floor(r.at / DAY)}|${r.type}|${r.connectionId ?? ""}`;
    grouped[k] = (grouped[k] ?? 0) + r.credits;
  }
  const rolled = Object.fromEntries(stored.days.map((d) => [`${d.day}|${d.type}|${d.connectionId}`, d.credits]));
  expect(rolled).toEqual(Object.fromEntries(Object.entries(grouped).filter(([, c]) => c !== 0)));

  const inRange = (from: number, to: number) => stored.rows.filter((r) => r.at >= from && r.at < to);
  const sumBy = (rows: Row[], key: (r: Row) => string) => {
    const out: Record<string, number> = {};
    for (const r of rows) out[key(r)] = (out[key(r)] ?? 0) + r.credits;
    return out;
  };

  // GET /v1/usage per connection, over ranges whose edges fall at midnight, mid-day, and inside one day.
  const midnight = Math.floor(now / DAY) * DAY;
  const ranges: [number, number][] = [
    [period.start, now + 1],
    [midnight - 9 * DAY, midnight - 2 * DAY],
    [midnight - 9 * DAY + 3_600, midnight - 2 * DAY - 7_200],
    [midnight - 30 * DAY + 40_000, midnight - 30 * DAY + 70_000],
    [now - 39 * DAY, now + 1],
  ];
  for (const [from, to] of ranges) {
    const res = await api.get(`/v1/usage?group_by=connection_id&from=${from}&to=${to}&limit=100`);
    expect(res.status(), await res.text()).toBe(200);
    const got = Object.fromEntries(
      ((await res.json()).data as { key: string | null; credits: number }[])
        .filter((r) => r.credits)
        .map((r) => [String(r.key), r.credits]),
    );
    const want = sumBy(inRange(from, to), (r) => String(r.connectionId));
    expect(got, `[${from}, ${to})`).toEqual(Object.fromEntries(Object.entries(want).filter(([, c]) => c)));
  }

  const session = await sessionAs(team.users[0].email, PASSWORD, team.id);
  try {
    // The Overview's chart: per day and service type over the period.
    const overview = await (await session.get("/api/dashboard/usage")).json();
    expect(overview.period_start).toBe(period.start);
    const inPeriod = inRange(period.start, period.end);
    const perDay = sumBy(inPeriod, (r) => `${Math.floor(r.at / DAY) * DAY}|${r.type}`);
    for (const d of overview.days as Record<string, number>[])
      for (const t of TYPES) expect(d[t], `${d.day} ${t}`).toBe(perDay[`${d.day}|${t}`] ?? 0);
    expect(overview.totals).toEqual(Object.fromEntries(TYPES.map((t) => [t, sumBy(inPeriod, (r) => r.type)[t] ?? 0])));

    // A connection's spend this period, in total and per day.
    const spend = await (await session.get(`/api/dashboard/connections/${acme}/spend`)).json();
    const acmeRows = inPeriod.filter((r) => r.connectionId === acme);
    expect(spend.credits).toBe(acmeRows.reduce((a, r) => a + r.credits, 0));
    const acmeDays = sumBy(acmeRows, (r) => String(Math.floor(r.at / DAY) * DAY));
    for (const d of spend.days as { day: number; credits: number }[])
      expect(d.credits, String(d.day)).toBe(acmeDays[String(d.day)] ?? 0);

    // The Clients page: acme's credits this period.
    const clients = await (await session.get("/api/dashboard/clients?limit=50")).json();
    const row = (clients.data as { external_id: string | null; credits: number; trend: number[] }[]).find(
      (c) => c.external_id === "acme",
    );
    expect(row?.credits).toBe(acmeRows.reduce((a, r) => a + r.credits, 0));
    // And the period before (its end, the current one's start, falls inside a day), as its trend shows it.
    const d = new Date(period.start * 1000);
    const day = d.getUTCDate();
    d.setUTCDate(1);
    d.setUTCMonth(d.getUTCMonth() - 1);
    d.setUTCDate(Math.min(day, new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate()));
    const before = inRange(Math.floor(d.getTime() / 1000), period.start).filter((r) => r.connectionId === acme);
    expect(before.length).toBeGreaterThan(20);
    expect(row?.trend[2]).toBe(before.reduce((a, r) => a + r.credits, 0));
  } finally {
    await session.dispose();
  }
});
