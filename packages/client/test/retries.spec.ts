import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { Patchbay } from "@patchbay/client";
import { test, expect, seedTeam, type SeededTeam } from "../../../e2e/fixtures";
import { startExtraServer, type ExtraServer } from "../../../e2e/support/extra-server";
import { isPostgres } from "../../../e2e/support/instances";
import { migrateWith, root } from "../../../e2e/support/server";
import { tcpProxy } from "../../../e2e/support/tcp-proxy";
import { failure } from "./support";

// Retries against real servers: a rate limit's 429 and a database cut's 503, each answered with
// the server's own Retry-After.

const run = promisify(execFile);

type Sent = { at: number; method: string; path: string; status?: number; retryAfter?: string | null };

/** A fetch that logs each request's time and its response's status and Retry-After. */
function recorder() {
  const sent: Sent[] = [];
  const fetchAndRecord: typeof fetch = async (input, init) => {
    const entry: Sent = { at: Date.now(), method: init?.method ?? "GET", path: new URL(String(input)).pathname };
    sent.push(entry);
    const response = await fetch(input, init);
    Object.assign(entry, { status: response.status, retryAfter: response.headers.get("retry-after") });
    return response;
  };
  return { sent, fetch: fetchAndRecord };
}

test.describe("a rate limit of 3 requests per 2 s window", () => {
  let server: ExtraServer;
  test.beforeAll(async () => {
    server = await startExtraServer({ RATE_LIMIT_API_PER_MINUTE: "3", RATE_LIMIT_WINDOW_SECONDS: "2" });
  });
  test.afterAll(async () => server?.stop());

  test("a 429 is retried once Retry-After has passed, and the call succeeds", async () => {
    const team = await seedTeam({ name: "Client 429 Co" });
    const { sent, fetch } = recorder();
    const retries: { status: number; delayMs: number }[] = [];
    const patchbay = new Patchbay({
      baseUrl: server.baseUrl,
      apiKey: team.users[0].key,
      fetch,
      onRetry: (r) => retries.push(r),
    });
    for (let i = 0; i < 4; i++) expect((await patchbay.credits.get()).credits_limit).toBeGreaterThan(0);

    const limited = sent.findIndex((s) => s.status === 429);
    expect(limited, JSON.stringify(sent)).toBeGreaterThan(0);
    const waitMs = Number(sent[limited].retryAfter) * 1000;
    expect(waitMs).toBeGreaterThanOrEqual(1000);
    expect(retries[0]).toMatchObject({ status: 429, delayMs: waitMs });
    // The next request went out no sooner than the server asked, and was answered.
    expect(sent[limited + 1].at - sent[limited].at).toBeGreaterThanOrEqual(waitMs - 50);
    expect(sent.at(-1)!.status).toBe(200);
  });

  test("without retries, or when Retry-After is longer than the client will wait, the 429 is thrown at once", async () => {
    const team = await seedTeam({ name: "Client 429 bounded Co" });
    for (const options of [{ maxRetries: 0 }, { maxRetryDelayMs: 200 }]) {
      const { sent, fetch } = recorder();
      const retries: unknown[] = [];
      const patchbay = new Patchbay({
        baseUrl: server.baseUrl,
        apiKey: team.users[0].key,
        fetch,
        onRetry: (r) => retries.push(r),
        ...options,
      });
      let error;
      for (let i = 0; i < 5 && !error; i++)
        error = await patchbay.connections.list().then(
          () => undefined,
          (e) => e,
        );
      // At once: the 429 was the last request sent, with no retry scheduled after it (not a
      // wall-clock bound, which a busy machine would break).
      expect(retries, JSON.stringify(options)).toEqual([]);
      expect(sent.at(-1)?.status, JSON.stringify(options)).toBe(429);
      expect(
        sent.filter((s) => s.status === 429),
        JSON.stringify(options),
      ).toHaveLength(1);
      expect(error, JSON.stringify(options)).toMatchObject({
        status: 429,
        retryAfter: expect.any(Number),
        detail: expect.stringContaining("Rate limit exceeded"),
      });
      // Let the window pass before the next variant.
      await new Promise((r) => setTimeout(r, 2100));
    }
  });
});

/**
 * A second server whose database is cut off from the start, until `restore()`: on PostgreSQL
 * behind a TCP proxy that is down; on SQLite, its own database file held exclusively by another
 * process (as a backup or a stuck migration would hold it), with a short busy timeout. (SQLite
 * grants that exclusive hold only while no other connection has the file open, hence the order.)
 */
async function serverWithDatabaseCut(): Promise<{
  server: ExtraServer;
  team: SeededTeam;
  restore: () => Promise<void>;
  close: () => Promise<void>;
}> {
  if (isPostgres()) {
    const target = new URL(process.env.DATABASE_URL!);
    const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(target);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const team = await seedTeam({ name: "Client cut Co" });
    await proxy.down();
    const server = await startExtraServer({ DATABASE_URL: viaProxy.toString() });
    return { server, team, restore: () => proxy.up(), close: async () => (await server.stop(), proxy.close()) };
  }
  const file = join(process.env.DATA_DIR!, `cut-${Date.now()}.db`);
  const env = { ...process.env, DATABASE_URL: `file:${file}` };
  migrateWith(env);
  const { stdout } = await run(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      "e2e/support/seed.ts",
      "team",
      JSON.stringify({ name: "Client cut Co" }),
    ],
    { cwd: root, env },
  );
  const team = JSON.parse(stdout) as SeededTeam;
  let holder: Database.Database | undefined = new Database(file);
  holder.pragma("locking_mode = EXCLUSIVE");
  holder.exec("BEGIN EXCLUSIVE");
  const restore = async () => {
    if (holder?.inTransaction) holder.exec("ROLLBACK");
    holder?.close();
    holder = undefined;
  };
  const server = await startExtraServer({ DATABASE_URL: env.DATABASE_URL, SQLITE_BUSY_TIMEOUT_MS: "300" }).catch(
    async (e) => {
      await restore();
      throw e;
    },
  );
  return { server, team, restore, close: async () => (await restore(), await server.stop()) };
}

test("a 503 while the database is cut off is retried after Retry-After, then thrown with the server's detail; back in time, the retry succeeds", async () => {
  test.setTimeout(90_000);
  const { server, team, restore, close } = await serverWithDatabaseCut();
  try {
    const retries: { status: number; delayMs: number }[] = [];
    const { sent, fetch } = recorder();
    const patchbay = new Patchbay({
      baseUrl: server.baseUrl,
      apiKey: team.users[0].key,
      fetch,
      maxRetries: 2,
      onRetry: (r) => retries.push(r),
    });

    const started = Date.now();
    const error = await failure(patchbay.connections.list());
    expect(error).toMatchObject({
      status: 503,
      code: "http_error",
      retryAfter: 2,
      detail: expect.stringContaining("database is unavailable"),
    });
    expect(sent.map((s) => s.status)).toEqual([503, 503, 503]);
    expect(retries).toEqual([
      expect.objectContaining({ status: 503, delayMs: 2000 }),
      expect.objectContaining({ status: 503, delayMs: 2000 }),
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4000);

    // A POST that met a 503 is not sent again: it may have been committed just before the cut.
    sent.length = 0;
    const post = await failure(patchbay.authLinks.create({ connection_type: "sandbox_oauth" }));
    expect(post.status).toBe(503);
    expect(sent).toHaveLength(1);

    // The database comes back while the client waits: the retry answers.
    sent.length = 0;
    retries.length = 0;
    const recovering = new Patchbay({
      baseUrl: server.baseUrl,
      apiKey: team.users[0].key,
      fetch,
      maxRetries: 5,
      onRetry: (r) => {
        retries.push(r);
        if (retries.length === 1) void restore();
      },
    });
    const balance = await recovering.credits.get();
    expect(balance.credits_limit).toBeGreaterThan(0);
    expect(sent[0].status).toBe(503);
    expect(sent.at(-1)!.status).toBe(200);
    expect(await recovering.connections.list()).toEqual([]);
    expect(server.log()).not.toMatch(/unhandled error/);
  } finally {
    await close();
  }
});
