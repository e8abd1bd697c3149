import { test, expect } from "../fixtures";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { join, resolve } from "node:path";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { freshPostgresDatabase } from "../support/server";

const run = promisify(execFile);
const root = resolve(__dirname, "..", "..");

/** A fresh, empty database on the engine this run uses. */
async function emptyDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const current = process.env.DATABASE_URL ?? "";
  if (!current.startsWith("postgres")) {
    return { url: `file:${join(mkdtempSync(join(tmpdir(), "pb-migrate-")), "fresh.db")}`, drop: async () => {} };
  }
  return freshPostgresDatabase(current, "patchbay_migrate");
}

const migrate = (url: string) =>
  run(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/db/migrate-cli.ts"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url },
  }).then((r) => JSON.parse(r.stdout));

test("instances starting together apply each migration exactly once", async () => {
  const db = await emptyDatabase();
  try {
    const results = await Promise.all([migrate(db.url), migrate(db.url), migrate(db.url)]);
    const total = results[0].total as number;
    expect(total).toBeGreaterThan(0);
    const applied = results.flatMap((r) => r.applied as string[]);
    // Every migration applied by exactly one of the three processes; none failed.
    expect(applied.sort()).toEqual([...new Set(applied)].sort());
    expect(applied).toHaveLength(total);
    const again = await migrate(db.url);
    expect(again.applied).toEqual([]);
  } finally {
    await db.drop();
  }
});
