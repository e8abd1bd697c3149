import { join } from "node:path";
import { readdirSync } from "node:fs";
import { test, expect, baseURL } from "../fixtures";
import { freePort, freshPostgresDatabase, migrateWith, root } from "../support/server";
import { startExtraServer } from "../support/extra-server";

// GET /healthz (liveness: no database) and GET /readyz (the database answers and holds every
// migration of this build), outside /v1.

const postgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "");
const engine = postgres ? "postgresql" : "sqlite";
const MIGRATIONS = readdirSync(join(root, "prisma", "migrations", engine), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

/** Runs one statement on the database `url` names, with the plain driver. */
async function execSql(url: string, sql: string) {
  if (postgres) {
    const { Client } = await import("pg");
    const c = new Client({ connectionString: url });
    await c.connect();
    await c.query(sql);
    await c.end();
  } else {
    const Database = (await import("better-sqlite3")).default;
    const db = new Database(url.slice("file:".length));
    db.exec(sql);
    db.close();
  }
}

test("healthz and readyz answer 200 on the run's migrated server", async () => {
  const health = await fetch(`${baseURL()}/healthz`);
  expect(health.status).toBe(200);
  expect(health.headers.get("content-type")).toMatch(/^application\/json/);
  expect(await health.json()).toEqual({ status: "ok" });
  const ready = await fetch(`${baseURL()}/readyz`);
  expect(ready.status, await ready.clone().text()).toBe(200);
  expect(await ready.json()).toEqual({ status: "ready" });
});

test("readyz is 503 until every migration is applied, naming what is missing; healthz stays 200", async () => {
  test.setTimeout(120_000);
  // A database of its own that starts empty (a new PostgreSQL database, or an empty SQLite file).
  let url: string;
  let drop = async () => {};
  if (postgres) {
    const pg = await freshPostgresDatabase(process.env.DATABASE_URL!, "patchbay_readyz");
    url = pg.url;
    drop = pg.drop;
  } else {
    url = `file:${join(process.env.DATA_DIR!, `readyz-${Date.now()}.db`)}`;
    await execSql(url, "SELECT 1");
  }
  const server = await startExtraServer({ DATABASE_URL: url });
  try {
    const empty = await fetch(`${server.baseUrl}/readyz`);
    const { detail } = await empty.json();
    expect(empty.status, detail).toBe(503);
    expect(empty.headers.get("retry-after")).toBeTruthy();
    for (const m of MIGRATIONS) expect(detail).toContain(m);
    expect(detail).toContain("npm run db:migrate");
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);

    migrateWith({ ...process.env, DATABASE_URL: url });
    const migrated = await fetch(`${server.baseUrl}/readyz`);
    expect(migrated.status, await migrated.clone().text()).toBe(200);

    // A build that ships a migration the database lacks (e.g. a new version rolled out before migrating).
    const last = MIGRATIONS[MIGRATIONS.length - 1];
    await execSql(url, `DELETE FROM "_patchbay_migrations" WHERE name = '${last}'`);
    const behind = await fetch(`${server.baseUrl}/readyz`);
    const behindDetail = (await behind.json()).detail;
    expect(behind.status).toBe(503);
    expect(behindDetail).toContain(`missing 1 migration(s): ${last}`);
    for (const m of MIGRATIONS.slice(0, -1)) expect(behindDetail).not.toContain(m);
  } finally {
    await server.stop();
    await drop();
  }
});

test("readyz is 503 when the database does not answer, without exposing where it is; so is the API, with Retry-After", async () => {
  test.setTimeout(120_000);
  const deadPort = await freePort(); // nothing listens there
  const server = await startExtraServer({ DATABASE_URL: `postgresql://postgres@127.0.0.1:${deadPort}/nothing` });
  try {
    const res = await fetch(`${server.baseUrl}/readyz`);
    const { detail } = await res.json();
    expect(res.status, detail).toBe(503);
    expect(detail).toContain("database does not answer");
    expect(detail).not.toContain(String(deadPort));
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    expect(server.log()).toContain("readiness: database check failed");
    // Any operation: the key cannot even be checked. (The run's OpenAPI check sees this 503 too.)
    for (const path of ["/v1/connections", "/v1/logs", "/v1/credits"]) {
      const api = await fetch(`${server.baseUrl}${path}`, {
        headers: { authorization: `Bearer pbk_${"x".repeat(40)}` },
      });
      expect(api.status, path).toBe(503);
      expect(Number(api.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await api.json()).detail).toBe("The database is unavailable; retry shortly.");
    }
  } finally {
    await server.stop();
  }
});
