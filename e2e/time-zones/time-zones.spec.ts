import { test as base, expect, type Browser } from "@playwright/test";
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { hostWith, type Host } from "../fixtures";
import { freshPostgresDatabase, migrateWith } from "../support/server";
import { startInstance } from "../support/instances";
import { sessionAs } from "../support/session";

// The product behaves identically, to the byte, whatever TZ its server and CLI run in. Three
// servers of this build share one fresh database: one in UTC, one in Pacific/Kiritimati
// (UTC+14) and one in Pacific/Pago_Pago (UTC−11). The time-sensitive flows (API keys'
// lastUsedAt, the logs' history window and cursors, credits, renewals and the period roll, the
// ledger and its CSV, the overview's usage, auth-link and invite expiry, MCP results and the
// dashboard's HTML) are written through each zone's server and CLI, and every read is sent to
// all three and must answer the same bytes. On PostgreSQL the database itself runs in a fourth
// zone (Asia/Kathmandu, UTC+05:45), which the product's sessions must not inherit.

const ZONES = ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago"] as const;
type Zone = (typeof ZONES)[number];
const DATABASE_ZONE = "Asia/Kathmandu";

type Sql = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;
type World = {
  url: (zone: Zone) => string;
  /** The CLI and seed commands in a process of `zone`'s own, on this suite's database. */
  host: (zone: Zone) => Host;
  sql: Sql;
  engine: "sqlite" | "postgresql";
};

const test = base.extend<object, { world: World }>({
  world: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this destructuring: it must be an object pattern, here an empty one
    async ({}, use) => {
      const current = process.env.DATABASE_URL ?? "";
      const engine = current.startsWith("postgres") ? "postgresql" : "sqlite";
      let databaseUrl: string;
      let drop = async () => {};
      let sql: Sql;
      let close = async () => {};
      if (engine === "postgresql") {
        const fresh = await freshPostgresDatabase(current, "patchbay_tz", { throwaway: true });
        databaseUrl = fresh.url;
        drop = fresh.drop;
        const { Client } = await import("pg");
        const admin = new Client({ connectionString: databaseUrl });
        await admin.connect();
        await admin.query(
          `ALTER DATABASE "${new URL(databaseUrl).pathname.slice(1)}" SET timezone TO '${DATABASE_ZONE}'`,
        );
        await admin.end();
        // The suite's own connection, in UTC, reading instants as the text PostgreSQL stores.
        const client = new Client({ connectionString: databaseUrl, options: "-c TimeZone=UTC" });
        await client.connect();
        sql = async (text, params = []) => (await client.query(text, params)).rows;
        close = async () => void (await client.end());
      } else {
        databaseUrl = `file:${join(mkdtempSync(join(tmpdir(), "pb-tz-")), "tz.db")}`;
        const Database = (await import("better-sqlite3")).default;
        let conn: InstanceType<typeof Database> | undefined;
        sql = async (text, params = []) => {
          conn ??= new Database(databaseUrl.slice("file:".length), { timeout: 10_000 });
          const stmt = conn.prepare(text.replace(/\$\d+/g, "?"));
          return stmt.reader ? (stmt.all(...params) as Record<string, unknown>[]) : (stmt.run(...params), []);
        };
        close = async () => void conn?.close();
      }
      const env = (zone: Zone): NodeJS.ProcessEnv => ({
        ...process.env,
        DATABASE_URL: databaseUrl,
        TZ: zone,
        PATCHBAY_RECORD_RESPONSES: "",
      });
      migrateWith(env("Pacific/Kiritimati"));
      // Every write of ApiKey.lastUsedAt, counted by the database itself.
      if (engine === "postgresql") {
        await sql(`CREATE TABLE "TzLastUsedWrite" ("keyId" TEXT NOT NULL)`);
        await sql(
          `CREATE FUNCTION tz_count_last_used() RETURNS trigger AS $$ BEGIN INSERT INTO "TzLastUsedWrite" VALUES (NEW."id"); RETURN NEW; END $$ LANGUAGE plpgsql`,
        );
        await sql(
          `CREATE TRIGGER tz_count_last_used AFTER UPDATE OF "lastUsedAt" ON "ApiKey" FOR EACH ROW EXECUTE FUNCTION tz_count_last_used()`,
        );
      } else {
        await sql(`CREATE TABLE "TzLastUsedWrite" ("keyId" TEXT NOT NULL)`);
        await sql(
          `CREATE TRIGGER tz_count_last_used AFTER UPDATE OF "lastUsedAt" ON "ApiKey" BEGIN INSERT INTO "TzLastUsedWrite" VALUES (NEW."id"); END`,
        );
      }
      // Started one after another: three Next servers booting at once on 2 cores is slow.
      const servers: Awaited<ReturnType<typeof startInstance>>[] = [];
      for (const zone of ZONES)
        servers.push(await startInstance({ ...(env(zone) as Record<string, string>), PATCHBAY_RECORD_RESPONSES: "" }));
      const byZone = Object.fromEntries(ZONES.map((z, i) => [z, servers[i]]));
      // One CLI process per zone, started with that TZ, for all of the suite's commands.
      const hosts = Object.fromEntries(ZONES.map((z) => [z, hostWith(env(z))]));
      await use({ url: (z) => byZone[z].baseUrl, host: (z) => hosts[z], sql, engine });
      for (const host of Object.values(hosts)) await host.close();
      for (const s of servers) {
        await s.stop();
        if (/unhandled error/.test(s.log()))
          console.log(`[time-zones] a server logged unhandled errors:\n${s.log().slice(-4000)}`);
      }
      await close();
      await drop();
    },
    { scope: "worker", timeout: 240_000 },
  ],
});

// A budget, not an assertion: each test starts CLI processes and signs in on three servers; the
// lastUsedAt test (three teams, nine sign-ins) ran out of 180 s beside a CPU burner.
test.describe.configure({ timeout: 300_000 });

/** The admin CLI in `zone`, on the suite's database; fails the test on a non-zero exit. */
async function cliIn(world: World, zone: Zone, ...args: string[]) {
  const r = await world.host(zone).cli(...args);
  expect(r.code, JSON.stringify(r.json)).toBe(0);
  return r.json;
}

type Team = { id: string; email: string; password: string; key: string; keyId: string };

/** A team, its owner with a password and an API key, all made by the CLI running in `zone`. */
async function teamIn(world: World, zone: Zone, flags: string[] = []): Promise<Team> {
  const team = await cliIn(world, zone, "team", "create", "--name", `TZ ${zone}`, ...flags);
  const email = `owner-${team.id.slice(5).toLowerCase()}@tz.patchbay.dev`;
  const password = "correct horse battery staple";
  const user = await cliIn(
    world,
    zone,
    "user",
    "create",
    "--team",
    team.id,
    "--email",
    email,
    "--role",
    "owner",
    "--password",
    password,
  );
  const key = await cliIn(world, zone, "apikey", "create", "--team", team.id, "--user", user.id);
  return { id: team.id, email, password, key: key.key, keyId: key.id };
}

// Headers that must not differ between the zones (the rest are per request: ids, rate limits, date).
const COMPARED_HEADERS = ["content-type", "content-disposition", "cache-control", "content-length"];

type Same = { status: number; text: string; json: any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion

/**
 * The same request to the three servers, one after another; their answers must be equal to
 * the byte (status, body, the headers above). `headers` may be per zone (a session cookie).
 */
async function same(
  world: World,
  path: string,
  init: {
    method?: string;
    headers?: Record<string, string> | ((z: Zone) => Record<string, string>);
    body?: string;
  } = {},
): Promise<Same> {
  const answers: { zone: Zone; status: number; text: string; headers: Record<string, string | null> }[] = [];
  for (const zone of ZONES) {
    const headers = typeof init.headers === "function" ? init.headers(zone) : init.headers;
    const res = await fetch(world.url(zone) + path, {
      method: init.method ?? "GET",
      headers,
      body: init.body,
      redirect: "manual",
    });
    answers.push({
      zone,
      status: res.status,
      text: await res.text(),
      headers: Object.fromEntries(COMPARED_HEADERS.map((h) => [h, res.headers.get(h)])),
    });
  }
  const [utc, ...others] = answers;
  for (const a of others) {
    expect(
      { status: a.status, headers: a.headers, body: a.text },
      `${path} from the ${a.zone} server, against the UTC server's answer`,
    ).toEqual({ status: utc.status, headers: utc.headers, body: utc.text });
  }
  let json;
  try {
    json = JSON.parse(utc.text);
  } catch {
    json = undefined;
  }
  return { status: utc.status, text: utc.text, json };
}

const bearer = (team: { key: string }) => ({ authorization: `Bearer ${team.key}` });
const nowS = () => Math.floor(Date.now() / 1000);

/** Cookies of a dashboard session on each zone's server. */
async function sessionsFor(world: World, team: Team) {
  const cookies = {} as Record<Zone, string>;
  for (const zone of ZONES) {
    const ctx = await sessionAs(team.email, team.password, team.id, world.url(zone));
    cookies[zone] = (await ctx.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    await ctx.dispose();
  }
  return (zone: Zone) => ({ cookie: cookies[zone], "x-patchbay-team": team.id });
}

test("API keys: lastUsedAt is written once a minute whatever the zone (10 requests, 1 write)", async ({ world }) => {
  for (const zone of ZONES) {
    const team = await teamIn(world, zone);
    const before = Date.now();
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${world.url(zone)}/v1/credits`, { headers: bearer(team) });
      expect(res.status, `request ${i + 1} in ${zone}`).toBe(200);
      await new Promise((r) => setTimeout(r, 100));
    }
    const after = Date.now();
    // The write is not awaited by the request: give the last one time to land.
    await new Promise((r) => setTimeout(r, 500));
    const writes = async () =>
      (await world.sql(`SELECT COUNT(*) AS n FROM "TzLastUsedWrite" WHERE "keyId" = $1`, [team.keyId]))[0].n;
    expect(
      Number(await writes()),
      `lastUsedAt writes over 10 requests within ${after - before} ms on the ${zone} server`,
    ).toBe(1);

    // What was written is the first request's instant, and every server lists it alike.
    const session = await sessionsFor(world, team);
    const listed = await same(world, "/api/dashboard/api-keys", { headers: session });
    const key = listed.json.data.find((k: { id: string }) => k.id === team.keyId);
    expect(key.last_used_at).toBeGreaterThanOrEqual(Math.floor(before / 1000));
    expect(key.last_used_at).toBeLessThanOrEqual(Math.ceil(after / 1000));

    // A minute later (the stored value moved back 61 s) the next request writes again.
    const past = new Date(Date.now() - 61_000);
    await world.sql(`UPDATE "ApiKey" SET "lastUsedAt" = $1 WHERE "id" = $2`, [
      world.engine === "sqlite"
        ? past.toISOString().replace("Z", "+00:00")
        : past.toISOString().replace("T", " ").replace("Z", ""),
      team.keyId,
    ]);
    const written = Number(await writes());
    expect((await fetch(`${world.url(zone)}/v1/credits`, { headers: bearer(team) })).status).toBe(200);
    await expect
      .poll(async () => Number(await writes()), { message: `a write after a minute on the ${zone} server` })
      .toBe(written + 1);
  }
});

test("logs: the history window, the aged-out 404, filters and cursors are the same from every zone", async ({
  world,
}) => {
  const team = await teamIn(world, "Pacific/Kiritimati", ["--plan", "free", "--history-days", "1"]);
  // Around the window's edge (1 day), written by a process in UTC−11, plus a realistic spread by the CLI in UTC+14.
  const edge = await world.host("Pacific/Pago_Pago").seed("logs", {
    team: team.id,
    startedAgo: [30, 3_600, 86_400 - 300, 86_400 + 300, 3 * 86_400],
  });
  await cliIn(
    world,
    "Pacific/Kiritimati",
    "activity",
    "simulate",
    "--team",
    team.id,
    "--workflow-runs",
    "12",
    "--mcp-calls",
    "10",
    "--agent-conversations",
    "3",
    "--days",
    "3",
    "--seed",
    "7",
  );
  const cutoff = nowS() - 86_400;

  // The whole window, page by page: every page the same bytes from every server, each cursor
  // (taken from the UTC server's page) accepted by the others.
  const seen: { id: string; started_at: number }[] = [];
  let cursor: string | null = null;
  do {
    const page: Same = await same(world, `/v1/logs?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, {
      headers: bearer(team),
    });
    expect(page.status, page.text).toBe(200);
    seen.push(...page.json.data);
    cursor = page.json.next_cursor;
  } while (cursor);
  expect(seen.length).toBeGreaterThan(5);
  expect(seen.every((l) => l.started_at >= cutoff - 5)).toBe(true);
  expect(seen.map((l) => l.id)).toContain(edge.ids[2]);
  expect(seen.map((l) => l.id)).not.toContain(edge.ids[3]);

  // Filters with times in them.
  for (const q of [
    `status=error`,
    `started_after=${cutoff + 3_000}`,
    `started_before=${nowS() - 600}`,
    `started_after=${cutoff}&started_before=${nowS()}&source_type=agent`,
  ]) {
    expect((await same(world, `/v1/logs?limit=50&${q}`, { headers: bearer(team) })).status, q).toBe(200);
  }
  // Inside the window: the log; outside it: the aged-out 404 with the plan's window.
  expect((await same(world, `/v1/logs/${edge.ids[2]}`, { headers: bearer(team) })).status).toBe(200);
  const aged = await same(world, `/v1/logs/${edge.ids[3]}`, { headers: bearer(team) });
  expect(aged.status).toBe(404);
  expect(aged.json.detail.history_days).toBe(1);
  expect((await same(world, `/v1/logs/${edge.ids[4]}`, { headers: bearer(team) })).status).toBe(404);
});

test("credits: renewal, the period roll, the balance, the ledger and its CSV are the same from every zone", async ({
  world,
}) => {
  for (const zone of ZONES) {
    const team = await teamIn(world, zone, ["--plan", "pro", "--credits-limit", "500"]);
    // Renewed by the CLI in this zone: the period is one calendar month (UTC) from now.
    const t0 = Date.now();
    const renewed = await cliIn(world, zone, "credits", "renew", "--team", team.id);
    const t1 = Date.now();
    const monthFrom = (ms: number) => {
      const d = new Date(ms);
      d.setUTCMonth(d.getUTCMonth() + 1);
      return Math.floor(d.getTime() / 1000);
    };
    expect(renewed.billing_period_end).toBeGreaterThanOrEqual(monthFrom(t0) - 1);
    expect(renewed.billing_period_end).toBeLessThanOrEqual(monthFrom(t1));
    const balance = await same(world, "/v1/credits", { headers: bearer(team) });
    expect(balance.json.billing_period_end).toBe(renewed.billing_period_end);

    // Charges written by a process in this zone, then the ledger and its CSV.
    await world.host(zone).seed("charges", {
      team: team.id,
      charges: [
        { credits: 40, type: "workflow", ago: 7_200 },
        { credits: 25, type: "mcp", ago: 60 },
      ],
    });
    const ledger = await same(world, "/v1/credits/logs?limit=10", { headers: bearer(team) });
    expect(ledger.json.data.map((e: { credits_used: number }) => e.credits_used)).toEqual([25, 40]);
    const session = await sessionsFor(world, team);
    const csv = await same(world, "/api/dashboard/ledger.csv", { headers: session });
    expect(csv.status).toBe(200);
    expect(csv.text.split("\n").filter(Boolean)).toHaveLength(3);

    // A period that ended 10 days ago (set by a process in this zone) is rolled by the first
    // read, through this zone's server, to the period containing now: the old end + one month.
    const ended = await world.host(zone).seed("billingPeriod", { team: team.id, startedDaysAgo: 41 });
    const first = await fetch(`${world.url(zone)}/v1/credits`, { headers: bearer(team) });
    const rolled = await first.json();
    expect(rolled.billing_period_end, `rolled on the ${zone} server`).toBe(monthFrom(ended.end * 1000));
    expect(rolled.credits_used).toBe(0);
    expect((await same(world, "/v1/credits", { headers: bearer(team) })).json).toEqual(rolled);

    // The overview's usage, in UTC days over the rolled period.
    const usage = await sameUsage(world, session);
    expect(usage.period_end).toBe(rolled.billing_period_end);
    expect(usage.days[0].day % 86_400).toBe(0);
  }
});

/** The overview's usage answer carries `now` (seconds): asked again until the three land in one second. */
async function sameUsage(world: World, session: (z: Zone) => Record<string, string>) {
  for (let attempt = 0; ; attempt++) {
    const answers = await Promise.all(
      ZONES.map(async (z) => (await fetch(`${world.url(z)}/api/dashboard/usage`, { headers: session(z) })).text()),
    );
    if (answers.every((a) => JSON.parse(a).now === JSON.parse(answers[0]).now) || attempt === 4) {
      for (const [i, a] of answers.entries()) expect(a, `usage from the ${ZONES[i]} server`).toBe(answers[0]);
      return JSON.parse(answers[0]);
    }
  }
}

test("auth links and invites: expiry and status are the same from every zone", async ({ world }) => {
  for (const zone of ZONES) {
    const team = await teamIn(world, zone);
    const t0 = Date.now();
    const res = await fetch(`${world.url(zone)}/v1/connections/auth-link`, {
      method: "POST",
      headers: { ...bearer(team), "content-type": "application/json" },
      body: JSON.stringify({ connection_type: "sandbox_oauth" }),
    });
    const t1 = Date.now();
    expect(res.status, await res.clone().text()).toBe(200);
    const link = await res.json();
    expect(link.expires_at).toBeGreaterThanOrEqual(t0 + 86_400_000);
    expect(link.expires_at).toBeLessThanOrEqual(t1 + 86_400_000);
    const pending = await same(world, `/v1/connections/auth-links/${link.id}/status`, { headers: bearer(team) });
    expect(pending.json).toMatchObject({ status: "pending", expires_at: link.expires_at });
    await world.host(zone).seed("expireAuthLink", { id: link.id });
    const expired = await same(world, `/v1/connections/auth-links/${link.id}/status`, { headers: bearer(team) });
    expect(expired.json.status).toBe("expired");

    const session = await sessionsFor(world, team);
    const created = await fetch(`${world.url(zone)}/api/dashboard/invites`, {
      method: "POST",
      headers: { ...session(zone), "content-type": "application/json" },
      body: JSON.stringify({ email: `invitee-${zone.length}@tz.patchbay.dev`, role: "member" }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const invite = await created.json();
    const listed = await same(world, "/api/dashboard/invites", { headers: session });
    const row = listed.json.data.find((i: { id: string }) => i.id === invite.id);
    expect(row.status).toBe("pending");
    await world.host(zone).seed("expireInvite", { id: row.id });
    const after = await same(world, "/api/dashboard/invites", { headers: session });
    expect(after.json.data.find((i: { id: string }) => i.id === row.id).status).toBe("expired");
  }
});

test("MCP results are the same from every zone", async ({ world }) => {
  const team = await teamIn(world, "Pacific/Pago_Pago");
  const made = await fetch(`${world.url("Pacific/Kiritimati")}/v1/connections`, {
    method: "POST",
    headers: { ...bearer(team), "content-type": "application/json" },
    body: JSON.stringify({ connection_type: "sandbox_key", name: "TZ key", credentials: { api_key: "tz-key" } }),
  });
  expect(made.status, await made.clone().text()).toBe(200);
  const connection = await made.json();
  const owner = (await world.sql(`SELECT "createdByUserId" AS u FROM "ApiKey" WHERE "id" = $1`, [team.keyId]))[0]
    .u as string;
  const server = await cliIn(
    world,
    "Pacific/Kiritimati",
    "mcp",
    "create",
    "--team",
    team.id,
    "--user",
    owner,
    "--name",
    "TZ",
    "--connections",
    connection.id,
  );
  const headers = {
    authorization: `Bearer ${server.token}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const call = (name: string, args: object) =>
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });
  // A report by day (UTC calendar days) through the sandbox provider: the same days and numbers from every zone.
  const report = await same(world, "/mcp", {
    method: "POST",
    headers,
    body: call("sandbox_report", { connection_id: connection.id, metric: "sessions" }),
  });
  expect(report.status).toBe(200);
  expect(report.json.result.isError ?? false, report.text).toBe(false);
  expect(report.text).toContain(new Date().toISOString().slice(0, 10));
  // Each call was logged and charged: the MCP logs and their ledger entries read alike everywhere.
  const logs = await same(world, "/v1/logs?source_type=mcp&limit=10", { headers: bearer(team) });
  expect(logs.json.data).toHaveLength(3);
  expect((await same(world, "/v1/credits/logs?limit=10", { headers: bearer(team) })).json.data.length).toBeGreaterThan(
    0,
  );
});

test("the dashboard's HTML does not depend on the server's zone, and the browser shows the viewer's", async ({
  world,
  browser,
}) => {
  const team = await teamIn(world, "UTC", ["--plan", "free"]);
  await cliIn(
    world,
    "UTC",
    "activity",
    "simulate",
    "--team",
    team.id,
    "--workflow-runs",
    "3",
    "--days",
    "1",
    "--seed",
    "3",
  );
  const session = await sessionsFor(world, team);
  // The server-rendered logs page (its history cutoff is rendered there), per-request nonces aside.
  const pages = [];
  for (const zone of ZONES) {
    const res = await fetch(`${world.url(zone)}/${team.id}/logs`, { headers: session(zone) });
    expect(res.status).toBe(200);
    pages.push((await res.text()).replace(/nonce(=|\\":\\")"?[A-Za-z0-9+/=_-]+/g, "nonce"));
  }
  const cutoffSeconds = (html: string) => html.match(/\\?"cutoff\\?":(\d+)/)?.[1];
  // Rendered a second or two apart, the cutoff (now − 1 day) may differ by that: compare the rest.
  const steady = (html: string) =>
    html.replace(/\\?"cutoff\\?":\d+/g, "cutoff").replace(/(datetime="[^"]*"|\d{2}:\d{2}:\d{2})/g, "time");
  for (const [i, html] of pages.entries())
    expect(steady(html), `the logs page from the ${ZONES[i]} server`).toBe(steady(pages[0]));
  expect(pages[0], "the server renders times in UTC, and says so").toMatch(
    /title="\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC"/,
  );
  expect(Math.abs(Number(cutoffSeconds(pages[1])) - Number(cutoffSeconds(pages[0])))).toBeLessThanOrEqual(2);

  // In Chromium, a viewer in New York on the UTC+14 server: no hydration error, times in New York.
  await viewerSees(browser, world.url("Pacific/Kiritimati"), team, "America/New_York");
});

async function viewerSees(browser: Browser, base: string, team: Team, timezoneId: string) {
  const context = await browser.newContext({ timezoneId, baseURL: base });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(e.message));
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(team.email);
  await page.getByLabel("Password").fill(team.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/sign-in"));
  await page.goto(`/${team.id}/logs`);
  await expect(page.getByTestId("time-zone-note")).toContainText("America/New_York");
  // The cutoff note, in New York's wall clock.
  const cutoff = await page.locator("time[datetime]").first().getAttribute("datetime");
  const expected = new Intl.DateTimeFormat("en-GB", {
    year: "numeric",
    month: "short",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    timeZone: timezoneId,
  }).format(new Date(cutoff!));
  await expect(page.locator("time[datetime]").first()).toHaveText(expected);
  // The date filter shows and sets New York's wall clock: 09:30 there is 14:30 UTC in winter.
  await page.goto(`/${team.id}/logs?started_after=${Date.UTC(2026, 10, 20, 14, 30) / 1000}`);
  await expect(page.locator('input[type="datetime-local"]').first()).toHaveValue("2026-11-20T09:30");
  expect(problems, "console errors (a hydration mismatch among them)").toEqual([]);
  await context.close();
}
