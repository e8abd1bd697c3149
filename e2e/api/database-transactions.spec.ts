import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test, expect, seedTeam } from "../fixtures";
import { inDatabase } from "../support/in-database";

// A write outside a transaction never stands or falls with it. On SQLite Prisma's adapter runs
// every query of a process on one connection, and a query made while another part of the process
// had a transaction open ran inside that transaction: a workflow run's claim was rolled back with
// another run's failed step, the claim was taken again, and two instances ran the same run (each
// node logged twice; found by CI). Real product modules on this run's database (SQLite file or
// PostgreSQL), in a process of their own.

const engine = (process.env.DATABASE_URL ?? "").startsWith("postgres") ? "postgresql" : "sqlite";

test("a write made elsewhere in the process while a transaction is open stays when that transaction rolls back", async () => {
  const team = await seedTeam({ name: "Turns Co" });
  const out = await inDatabase<{ error: string; team: { name: string; lowCreditsPercent: number }; order: string[] }>(
    `
    const transaction = pick(await import("./lib/db/transaction.ts"), "transaction");
    const order = [];
    // Made outside the transaction (its continuation is registered here, in no transaction's
    // context), and let go once the transaction has written: it runs while the transaction is
    // open, however slow the machine. A timer here raced the transaction's start beside a CPU
    // burner (issue 32).
    let opened;
    const open = new Promise((r) => (opened = r));
    const elsewhere = open.then(() =>
      db.team.update({ where: { id: args.team }, data: { lowCreditsPercent: 33 } }).then(() => order.push("elsewhere")),
    );
    const error = await transaction(async (tx) => {
      await tx.team.update({ where: { id: args.team }, data: { name: "changed inside" } });
      opened();
      await new Promise((r) => setTimeout(r, 600));
      order.push("transaction");
      throw new Error("rolled back on purpose");
    }).catch((e) => e.message);
    await elsewhere;
    const team = await db.team.findUnique({ where: { id: args.team }, select: { name: true, lowCreditsPercent: true } });
    return { error, team, order };
    `,
    { team: team.id },
  );
  expect(out.error).toBe("rolled back on purpose");
  // The transaction's own write is gone; the other one is there.
  expect(out.team.name).toBe("Turns Co");
  expect(out.team.lowCreditsPercent).toBe(33);
  if (engine === "sqlite") expect(out.order).toEqual(["transaction", "elsewhere"]); // it waited its turn
});

test("on SQLite, a query through db instead of tx inside a transaction's callback fails at once, naming the mistake", async () => {
  test.skip(engine !== "sqlite", "PostgreSQL runs it on another connection of the pool");
  const team = await seedTeam();
  const out = await inDatabase<{ error: string; ms: number }>(
    `
    const transaction = pick(await import("./lib/db/transaction.ts"), "transaction");
    const started = Date.now();
    const error = await transaction(async (tx) => {
      await tx.team.update({ where: { id: args.team }, data: { name: "inside" } });
      await db.team.findUnique({ where: { id: args.team } });
    }).catch((e) => e.message);
    return { error, ms: Date.now() - started };
    `,
    { team: team.id },
  );
  expect(out.error).toMatch(
    /^A query was made outside the open transaction from inside its callback \(use its tx, not db\)/,
  );
  // Not the 30 s of a transaction that times out waiting for itself.
  expect(out.ms).toBeLessThan(10_000);
});

test("on SQLite, a transaction that reads, then writes after another process committed, succeeds: it began IMMEDIATE", async () => {
  test.skip(engine !== "sqlite", "PostgreSQL locks rows, not the database");
  const team = await seedTeam({ name: "Immediate Co" });
  const go = join(mkdtempSync(join(tmpdir(), "immediate-")), "read");
  // Another process, ready first, writes as soon as the transaction below has read.
  const writer = inDatabase<{ ok: boolean }>(
    `
    const { existsSync } = await import("node:fs");
    while (!existsSync(args.go)) await new Promise((r) => setTimeout(r, 10));
    await db.team.update({ where: { id: args.team }, data: { lowCreditsPercent: 44 } });
    return { ok: true };
    `,
    { team: team.id, go },
  );
  // Prisma's own transaction, with no retry (an upsert is one): read, let the writer go, write.
  const reader = await inDatabase<{ error: string | null }>(
    `
    const { writeFileSync } = await import("node:fs");
    const error = await db.$transaction(async (tx) => {
      await tx.team.findUnique({ where: { id: args.team } });
      writeFileSync(args.go, "");
      await new Promise((r) => setTimeout(r, 1000));
      await tx.team.update({ where: { id: args.team }, data: { name: "written after reading" } });
    }, { maxWait: 10_000, timeout: 20_000 }).then(() => null, (e) => e.message);
    return { error };
    `,
    { team: team.id, go },
  );
  expect(reader.error).toBeNull();
  expect((await writer).ok).toBe(true);
  const after = await inDatabase<{ name: string; lowCreditsPercent: number }>(
    `return db.team.findUnique({ where: { id: args.team }, select: { name: true, lowCreditsPercent: true } });`,
    { team: team.id },
  );
  expect(after).toEqual({ name: "written after reading", lowCreditsPercent: 44 });
});

test("on PostgreSQL, a transaction whose connection is killed before its COMMIT gives that connection back to the pool", async () => {
  test.skip(engine !== "postgresql", "SQLite has no pool of connections to lose");
  // Prisma sends COMMIT, then calls the adapter to release the connection; when COMMIT failed it
  // never released it. A pool of two lost both to three such ends, and every later query waited
  // out the connection timeout (found by CI killing connections under load).
  const out = await inDatabase<{ ends: string[]; after: string; ms: number }>(
    `
    const pg = (await import("pg")).default;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const ends = [];
    for (let i = 0; i < 3; i++) {
      ends.push(await db.$transaction(async (tx) => {
        const [{ pid }] = await tx.$queryRawUnsafe("SELECT pg_backend_pid() AS pid");
        await admin.query("SELECT pg_terminate_backend($1)", [pid]);
      }).then(() => "committed", (e) => e.message));
    }
    const started = Date.now();
    const after = await db.team.count().then(() => "answered", (e) => e.message);
    await admin.end();
    return { ends, after, ms: Date.now() - started };
    `,
    {},
    { ...process.env, DATABASE_POOL_SIZE: "2" },
  );
  for (const end of out.ends) expect(end).not.toBe("committed");
  expect(out.after).toBe("answered");
  expect(out.ms).toBeLessThan(4_000);
});

// The hot writes run on the open transaction's own driver connection (lib/db/tx-connection.ts,
// lib/db/write.ts), not through Prisma: each must land in its own transaction however many are
// open at once (PostgreSQL: one pooled connection each), and roll back with it.
test("direct writes belong to their own transaction: of 12 open at once, those that roll back leave none of theirs", async () => {
  const team = await seedTeam({ name: "Direct Co" });
  const out = await inDatabase<{ outcomes: string[]; targets: string[] }>(
    `
    const transaction = pick(await import("./lib/db/transaction.ts"), "transaction");
    const recordAuditEvent = pick(await import("./lib/audit/record-audit-event.ts"), "recordAuditEvent");
    const event = (id) => ({ teamId: args.team, action: "connection.create", target: { type: "test", id }, actor: { kind: "system" } });
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        transaction(async (tx) => {
          await recordAuditEvent(tx, event("t" + i + "a"));
          // The others write in between (on PostgreSQL, on their own connections).
          await new Promise((r) => setTimeout(r, 20 + (i % 3) * 15));
          await recordAuditEvent(tx, event("t" + i + "b"));
          if (i % 2) throw new Error("rolled back " + i);
        }).then(() => "committed " + i, (e) => e.message),
      ),
    );
    const rows = await db.auditEvent.findMany({ where: { teamId: args.team, targetType: "test" }, select: { targetId: true } });
    return { outcomes, targets: rows.map((r) => r.targetId).sort() };
    `,
    { team: team.id },
  );
  expect(out.outcomes).toEqual(Array.from({ length: 12 }, (_, i) => (i % 2 ? `rolled back ${i}` : `committed ${i}`)));
  const even = [0, 2, 4, 6, 8, 10].flatMap((i) => [`t${i}a`, `t${i}b`]);
  expect(out.targets).toEqual(even.sort());
});

test("a key a direct write breaks is reported as Prisma reports it (P2002), and its transaction leaves nothing", async () => {
  const team = await seedTeam();
  const out = await inDatabase<{ code: string | null; stored: number }>(
    `
    const transaction = pick(await import("./lib/db/transaction.ts"), "transaction");
    const ops = await import("./lib/logs/record-operations.ts");
    const [writeLog, toLogRow] = [pick(ops, "writeLog"), pick(ops, "toLogRow")];
    const id = "log_duplicate_" + Date.now();
    const row = toLogRow(args.team, id, {
      operationId: "utility.format_text",
      status: "success",
      source: { type: "workflow", id: null, name: null },
      user: null,
      startedAt: Math.floor(Date.now() / 1000),
      completedAt: null,
    });
    const code = await transaction(async (tx) => {
      await writeLog(tx, row);
      await writeLog(tx, row);
    }).then(() => null, (e) => e.code ?? e.message);
    return { code, stored: await db.operationLog.count({ where: { id } }) };
    `,
    { team: team.id },
  );
  expect(out).toEqual({ code: "P2002", stored: 0 });
});

test("on SQLite, a process waiting for another's write lock keeps running: the wait is a timer, not a frozen driver call", async () => {
  test.skip(engine !== "sqlite", "PostgreSQL locks rows, and its driver does not block the process");
  const team = await seedTeam({ name: "Busy Co" });
  const out = await inDatabase<{ error: string | null; waited: number; ticks: number; name: string }>(
    `
    const Database = (await import("better-sqlite3")).default;
    const transaction = pick(await import("./lib/db/transaction.ts"), "transaction");
    const { file } = pick(await import("./lib/db/engine.ts"), "databaseTarget")();
    // Another connection (as another process would) holds the write lock for 600 ms; its COMMIT
    // is a timer of this process, which fires only if the wait below leaves the event loop free.
    // (It may itself wait for the test server's jobs to commit first.)
    const other = new Database(file, { timeout: 10_000 });
    other.exec("BEGIN IMMEDIATE");
    setTimeout(() => other.exec("COMMIT"), 600);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const started = Date.now();
    const error = await transaction((tx) => tx.team.update({ where: { id: args.team }, data: { name: "after the lock" } }))
      .then(() => null, (e) => e.message);
    const waited = Date.now() - started;
    clearInterval(timer);
    other.close();
    const { name } = await db.team.findUnique({ where: { id: args.team }, select: { name: true } });
    return { error, waited, ticks, name };
    `,
    { team: team.id },
  );
  expect(out.error).toBeNull();
  expect(out.name).toBe("after the lock");
  expect(out.waited).toBeGreaterThanOrEqual(500);
  // A busy handler sleeping inside the driver call would have frozen the timers (and the COMMIT above).
  expect(out.ticks).toBeGreaterThan(20);
  expect(out.waited).toBeLessThan(5_000);
});

// lib/db/pg-named-statements.ts: on PostgreSQL a statement with parameters is named from its
// second use, so each connection parses it once. Prisma's statements and the compiled reads both.
for (const setting of ["on", "off"] as const)
  test(`on PostgreSQL, a repeated statement ${setting === "on" ? "is prepared once per connection and answers as before" : "stays unnamed with DATABASE_PREPARED_STATEMENTS=off"}`, async () => {
    test.skip(engine !== "postgresql", "named statements are PostgreSQL's");
    const team = await seedTeam({ name: "Prepared Co" });
    const out = await inDatabase<{ names: { name: string; statement: string }[]; answers: (string | number)[] }>(
      `
      const transaction = pick(await import("./lib/db/transaction.ts"), "transaction");
      // One transaction: every statement on one connection, whose prepared statements are then listed.
      return transaction(async (tx) => {
        const answers = [];
        for (let i = 0; i < 3; i++) {
          const team = await tx.team.findUnique({ where: { id: args.team }, select: { name: true } });
          answers.push(team.name);
        }
        await tx.team.update({ where: { id: args.team }, data: { name: "Renamed Co" } });
        answers.push((await tx.team.findUnique({ where: { id: args.team }, select: { name: true } })).name);
        // A batch (60 parameters), twice: its text varies with its rows, so it is never named.
        const ids = Array.from({ length: 60 }, (_, i) => (i ? "t_none_" + i : args.team));
        const batch = 'SELECT "id" AS "batch" FROM "Team" WHERE "id" IN (' + ids.map((_, i) => "$" + (i + 1)).join(", ") + ")";
        for (let i = 0; i < 2; i++) answers.push((await tx.$queryRawUnsafe(batch, ...ids)).length);
        const names = await tx.$queryRawUnsafe("SELECT name, statement FROM pg_prepared_statements ORDER BY name");
        return { names, answers };
      });
      `,
      { team: team.id },
      { ...process.env, DATABASE_PREPARED_STATEMENTS: setting },
    );
    // The same answers, the last one read after a write: a prepared statement is not a cache.
    expect(out.answers).toEqual(["Prepared Co", "Prepared Co", "Prepared Co", "Renamed Co", 1, 1]);
    expect(out.names.some((n) => n.statement.includes('"batch"'))).toBe(false);
    const team_ = out.names.filter((n) => /FROM "public"\."Team"/.test(n.statement) && /^SELECT/.test(n.statement));
    if (setting === "off") expect(out.names).toEqual([]);
    else {
      // The read, named on its second use and reused after (one entry, not three); the one-off update stays unnamed.
      expect(team_).toHaveLength(1);
      expect(team_[0].name).toMatch(/^pb_\d+$/);
      expect(out.names.some((n) => /^UPDATE/.test(n.statement))).toBe(false);
    }
  });

// lib/db/tx-connection.ts: an INSERT nobody reads back in its transaction (an audit record, a
// webhook event and its deliveries, a new connection) is held on PostgreSQL and sent with the
// transaction's next statement or at its end. Every read after it must still see it (Prisma's
// and the compiled ones), the commit must carry it, and a rollback must drop it. SQLite writes
// it at once; the answers are the same.
test("writes held for the next statement are seen by every read after them, committed with the transaction, dropped by a rollback", async () => {
  const team = await seedTeam({ name: "Deferred Co" });
  const out = await inDatabase<{ seen: number[]; rolledBack: string; stored: string[] }>(
    `
    const transaction = pick(await import("./lib/db/transaction.ts"), "transaction");
    const recordAuditEvent = pick(await import("./lib/audit/record-audit-event.ts"), "recordAuditEvent");
    const writes = await import("./lib/db/write.ts");
    const [preparedInTx, write] = [pick(writes, "preparedInTx"), pick(writes, "write")];
    const event = (id) => ({ teamId: args.team, action: "connection.create", target: { type: "deferred", id }, actor: { kind: "system" } });
    const count = preparedInTx((a) =>
      write.selectFrom("AuditEvent").select((eb) => eb.fn.countAll().as("n")).where("teamId", "=", a.team).where("targetType", "=", "deferred"),
    );
    const seen = await transaction(async (tx) => {
      await recordAuditEvent(tx, event("a"));
      const byPrisma = await tx.auditEvent.count({ where: { teamId: args.team, targetType: "deferred" } });
      await recordAuditEvent(tx, event("b"));
      await recordAuditEvent(tx, event("c"));
      const [{ n }] = await count(tx, { team: args.team });
      // Held until the transaction ends: the commit carries it.
      await recordAuditEvent(tx, event("d"));
      return [byPrisma, Number(n)];
    });
    const rolledBack = await transaction(async (tx) => {
      await recordAuditEvent(tx, event("e"));
      throw new Error("rolled back");
    }).catch((e) => e.message);
    const rows = await db.auditEvent.findMany({ where: { teamId: args.team, targetType: "deferred" }, select: { targetId: true } });
    return { seen, rolledBack, stored: rows.map((r) => r.targetId).sort() };
    `,
    { team: team.id },
  );
  expect(out).toEqual({ seen: [1, 3], rolledBack: "rolled back", stored: ["a", "b", "c", "d"] });
});

test("on PostgreSQL, saving a new connection is two statements in two round trips: the subscribers' read, then the row, its event, deliveries and audit record as one statement with no transaction", async () => {
  test.skip(engine !== "postgresql", "statements are round trips on PostgreSQL; SQLite runs in the process");
  const team = await seedTeam({ name: "Round trips Co" });
  const out = await inDatabase<{ sent: string[]; trips: number; writes: number; stored: Record<string, number> }>(
    `${COUNT_STATEMENTS}
    const saveConnection = pick(await import("./lib/connection-changes/save-connection.ts"), "saveConnection");
    const createWebhookEndpoint = pick(await import("./lib/webhooks/endpoints.ts"), "createWebhookEndpoint");
    for (const url of ["http://127.0.0.1:9/a", "http://127.0.0.1:9/b"]) await createWebhookEndpoint(args.team, { url });
    const { result: { row }, sent, trips, writes } = await counted(() => saveConnection({
      teamId: args.team, type: "sandbox_key", typeName: "Sandbox (API key)", displayName: "Counted",
      ownerUserId: undefined, actingUserId: null, credentials: { api_key: "sk-counted" }, rotationKey: null,
      via: { kind: "credentials" },
    }));
    const where = { where: { teamId: args.team } };
    const stored = {
      connection: await db.connection.count({ where: { id: row.id } }),
      events: await db.webhookEvent.count(where),
      deliveries: await db.webhookDelivery.count(where),
      audit: await db.auditEvent.count({ where: { teamId: args.team, targetId: row.id } }),
    };
    return { sent, trips, writes, stored };
    `,
    { team: team.id },
    { ...process.env, WEBHOOK_ALLOW_PRIVATE_URLS: "1" },
  );
  expect(out.stored).toEqual({ connection: 1, events: 1, deliveries: 2, audit: 1 });
  expect(out.sent, out.sent.map((s) => s.slice(0, 100)).join("\n")).toHaveLength(2);
  expect(out.sent[0]).toMatch(/^select .* from "Team" as "t" left join "WebhookEndpoint"/);
  // Every write is a new row: one statement, atomic by itself (saveConnection's insertedAtOnce).
  expect(out.sent[1]).toMatch(
    /^with "deferred_0" as \(insert into "Connection" .*"deferred_1" as \(insert into "WebhookEvent" .*"deferred_2" as \(insert into "WebhookDelivery" .*\) insert into "AuditEvent" /,
  );
  // Two waits for the server where the transaction had three (BEGIN with the row and the read,
  // then the rest with COMMIT), and none of Prisma's interactive transaction.
  expect(out.trips).toBe(2);
  expect(out.writes).toBe(2);
});

test("on PostgreSQL, a transaction's BEGIN waits for its first statement: one that sends nothing sends nothing, and its connection goes back outside any transaction", async () => {
  test.skip(engine !== "postgresql", "BEGIN is a round trip on PostgreSQL only");
  const team = await seedTeam({ name: "Lazy begin Co" });
  const out = await inDatabase<{
    empty: { sent: string[]; trips: number };
    thrown: { sent: string[]; trips: number; message: string };
    read: { sent: string[]; trips: number; oneTransaction: boolean };
    after: { inTransaction: boolean[]; name: string };
  }>(
    `${COUNT_STATEMENTS}
    const transaction = pick(await import("./lib/db/transaction.ts"), "transaction");
    const runRead = pick(await import("./lib/db/client.ts"), "runRead");
    const empty = await counted(() => transaction(async () => 1));
    const thrown = await counted(() => transaction(async () => { throw new Error("before any statement"); }).catch((e) => e.message));
    // The first statement already runs inside the transaction: it sees the same start time (now()) as the last.
    const read = await counted(() => transaction(async (tx) => {
      const first = await tx.$queryRawUnsafe("select now()::text as t, pg_sleep(0.01)::text as slept");
      const second = await tx.$queryRawUnsafe("select now()::text as t");
      return first[0].t === second[0].t;
    }));
    // Every pooled connection afterwards is outside any transaction (a held BEGIN is not carried over).
    const inTransaction = await Promise.all(Array.from({ length: 12 }, () =>
      runRead("select now() <> statement_timestamp() as open, pg_sleep(0.02)", []).then((r) => r[0].open)));
    await db.team.update({ where: { id: args.team }, data: { name: "Renamed in a transaction" } });
    const name = (await db.team.findUnique({ where: { id: args.team } })).name;
    return {
      empty: { sent: empty.sent, trips: empty.trips },
      thrown: { sent: thrown.sent, trips: thrown.trips, message: thrown.result },
      read: { sent: read.sent, trips: read.trips, oneTransaction: read.result },
      after: { inTransaction, name },
    };
    `,
    { team: team.id },
  );
  expect(out.empty).toEqual({ sent: ["BEGIN", "COMMIT"], trips: 0 });
  expect(out.thrown).toEqual({ sent: ["BEGIN", "ROLLBACK"], trips: 0, message: "before any statement" });
  expect(out.read.sent[0]).toBe("BEGIN");
  expect(out.read.sent).toHaveLength(4);
  // BEGIN and the first read in one round trip, the second read, COMMIT.
  expect(out.read.trips).toBe(3);
  expect(out.read.oneTransaction).toBe(true);
  expect(out.after.inTransaction.every((open) => open === false)).toBe(true);
  expect(out.after.name).toBe("Renamed in a transaction");
});

test("a log written and then completed in one transaction ends completed: an UPDATE never shares a statement with a write of its table", async () => {
  const team = await seedTeam({ name: "Same table Co" });
  const out = await inDatabase<{ status: string; output: string | null } | null>(
    `
    const transaction = pick(await import("./lib/db/transaction.ts"), "transaction");
    const ops = await import("./lib/logs/record-operations.ts");
    const [writeLog, completeLog, toLogRow] = [pick(ops, "writeLog"), pick(ops, "completeLog"), pick(ops, "toLogRow")];
    const id = "log_same_table_" + Date.now();
    const at = Math.floor(Date.now() / 1000);
    const row = toLogRow(args.team, id, {
      operationId: "utility.format_text",
      status: "start",
      source: { type: "workflow", id: null, name: null },
      user: null,
      startedAt: at,
      completedAt: null,
    });
    await transaction(async (tx) => {
      await writeLog(tx, row);
      // Held with the INSERT above in one statement, this UPDATE would not see the new row.
      await completeLog(tx, id, { status: "success", completedAt: at, output: JSON.stringify({ done: true }), metadata: "{}" });
    });
    return db.operationLog.findUnique({ where: { id }, select: { status: true, output: true } });
    `,
    { team: team.id },
  );
  expect(out).toEqual({ status: "success", output: JSON.stringify({ done: true }) });
});

/**
 * Statements the product sends to PostgreSQL while `body` runs (the counting wrapper of the test
 * above), and the most of them written before the first of those had its answer (`most`).
 */
const COUNT_STATEMENTS = `
  const NamedStatementsClient = pick(await import("./lib/db/pg-named-statements.ts"), "NamedStatementsClient");
  // sent: each statement's text; most: statements awaiting their answer at once; trips: round
  // trips on the wire (a Sync or simple query written while its connection awaited no answer);
  // writes: the socket writes that carried them.
  const counted = async (body) => {
    const sent = [];
    let open = 0;
    let most = 0;
    let trips = 0;
    let writes = 0;
    const unhook = [];
    const hooked = new WeakSet();
    const hook = (con) => {
      if (hooked.has(con)) return;
      hooked.add(con);
      let waiting = 0;
      const own = { sync: con.sync, query: con.query };
      for (const name of ["sync", "query"])
        con[name] = function (...a) {
          if (waiting++ === 0) trips++;
          return own[name].apply(this, a);
        };
      const answered = () => (waiting = Math.max(0, waiting - 1));
      con.on("readyForQuery", answered);
      const socket = { _write: con.stream._write, _writev: con.stream._writev };
      for (const name of ["_write", "_writev"])
        con.stream[name] = function (...a) {
          writes++;
          return socket[name].apply(this, a);
        };
      unhook.push(() => {
        delete con.sync;
        delete con.query;
        con.off("readyForQuery", answered);
        Object.assign(con.stream, socket);
      });
    };
    const query = NamedStatementsClient.prototype.query;
    NamedStatementsClient.prototype.query = function (config, ...rest) {
      hook(this.connection);
      sent.push((typeof config === "string" ? config : config.text).replace(/\\s+/g, " "));
      most = Math.max(most, ++open);
      const answer = query.call(this, config, ...rest);
      Promise.resolve(answer).finally(() => open--).catch(() => {});
      return answer;
    };
    try {
      const result = await body();
      return { result, sent, most, trips, writes };
    } finally {
      NamedStatementsClient.prototype.query = query;
      unhook.forEach((f) => f());
    }
  };
  const newRun = async (team, reservedCredits = 0) => {
    const workflow = await db.workflow.create({ data: { id: "wf_rt_" + Math.random().toString(36).slice(2), teamId: team, name: "Round trips", nodes: [] } });
    return db.workflowRun.create({
      data: {
        id: "run_rt_" + Math.random().toString(36).slice(2), teamId: team, workflowId: workflow.id, workflowName: "Round trips",
        trigger: "manual", status: "running", dueAt: BigInt(Date.now()), createdAt: BigInt(Date.now()), claims: 1, reservedCredits,
      },
    });
  };
`;

/** A running run of the team (`run`) and a `start` log row of it by id (`rowOf`), with `writeLog`. */
const RUN_AND_LOG_ROWS = `
    const ops = await import("./lib/logs/record-operations.ts");
    const [writeLog, toLogRow] = [pick(ops, "writeLog"), pick(ops, "toLogRow")];
    const run = await newRun(args.team);
    const at = Math.floor(Date.now() / 1000);
    const rowOf = (id) => toLogRow(args.team, id, {
      operationId: "utility.format_text", status: "start", source: { type: "workflow", id: null, name: null },
      user: null, startedAt: at, completedAt: null,
    });
`;

test("a run's hold is one batch (on PostgreSQL one round trip: BEGIN, the team's lock, the hold, COMMIT written at once), and a refusal or an ended period still says why", async () => {
  const team = await seedTeam({ name: "Hold Co", creditsLimit: 2 });
  const out = await inDatabase<{
    held: { sent: string[]; most: number; trips: number; refusal: string | null; reserved: number };
    refused: { refusal: string | null; reserved: number };
    ended: { refusal: string | null; reserved: number; rolled: boolean };
  }>(
    `${COUNT_STATEMENTS}
    const reserveCredits = pick(await import("./lib/workflows/credit-reservation.ts"), "reserveCredits");
    const reserved = async (id) => (await db.workflowRun.findUnique({ where: { id } })).reservedCredits;
    const first = await newRun(args.team);
    const { result, sent, most, trips } = await counted(() => reserveCredits(args.team, { id: first.id, claims: 1 }, 1));
    const held = { sent, most, trips, refusal: result, reserved: await reserved(first.id) };
    // The team's 2 credits: 1 held by the first run, 1 more by another one; a third finds none left.
    await newRun(args.team, 1);
    const third = await newRun(args.team);
    const refused = { refusal: await reserveCredits(args.team, { id: third.id, claims: 1 }, 1), reserved: await reserved(third.id) };
    // A billing period that has ended is rolled first (usage back to 0), then the hold is taken.
    await db.workflowRun.updateMany({ where: { teamId: args.team }, data: { status: "success", reservedCredits: 0 } });
    await db.team.update({ where: { id: args.team }, data: { creditsUsed: 2, billingPeriodEnd: new Date(Date.now() - 1000) } });
    const fourth = await newRun(args.team);
    const refusal = await reserveCredits(args.team, { id: fourth.id, claims: 1 }, 1);
    const after = await db.team.findUnique({ where: { id: args.team } });
    const ended = { refusal, reserved: await reserved(fourth.id), rolled: after.billingPeriodEnd.getTime() > Date.now() && after.creditsUsed === 0 };
    return { held, refused, ended };
    `,
    { team: team.id },
  );
  expect(out.held.refusal).toBeNull();
  expect(out.held.reserved).toBe(1);
  if (engine === "postgresql") {
    expect(out.held.sent, out.held.sent.join("\n")).toHaveLength(4);
    expect(out.held.sent[0]).toBe("BEGIN");
    expect(out.held.sent[1]).toMatch(/^update "Team" set "creditsUsed" = "creditsUsed" /);
    expect(out.held.sent[2]).toMatch(/^update "WorkflowRun" set "reservedCredits" = \$1 .* > 0 returning "id"$/);
    expect(out.held.sent[3]).toBe("COMMIT");
    // All four on the wire before the first answer came back: one round trip, not four.
    expect(out.held.most).toBe(4);
    expect(out.held.trips).toBe(1);
  }
  expect(out.refused.refusal).toMatch(/remaining credits are held by workflow runs and agent turns already under way/);
  expect(out.refused.reserved).toBe(0);
  expect(out.ended).toEqual({ refusal: null, reserved: 1, rolled: true });
});

test("on PostgreSQL, a run's node is saved in one statement with no transaction, and a lost claim undoes its logs with it", async () => {
  test.skip(engine !== "postgresql", "statements are round trips on PostgreSQL; SQLite runs in the process");
  const team = await seedTeam({ name: "All or nothing Co" });
  const out = await inDatabase<{ codes: (string | null)[]; logs: number[]; state: string; uncaptured: unknown[] }>(
    `${COUNT_STATEMENTS}
    const tc = await import("./lib/db/tx-connection.ts");
    const [captureDeferred, allOrNothing] = [pick(tc, "captureDeferred"), pick(tc, "allOrNothing")];
    const runStatement = pick(await import("./lib/db/client.ts"), "runStatement");
    ${RUN_AND_LOG_ROWS}
    const save = async (ids, claims) => {
      const deferred = await captureDeferred(async (tx) => { for (const id of ids) await writeLog(tx, rowOf(id)); });
      const one = allOrNothing(deferred, {
        sql: 'update "WorkflowRun" set "state" = $1 where "id" = $2 and "claims" = $3 returning "id"',
        values: [JSON.stringify({ saved: ids }), run.id, claims],
      });
      return runStatement(one.sql, one.values).then(() => null, (e) => e.code ?? e.message);
    };
    const base = "log_aon_" + Date.now();
    // The claim holds (claims = 1): both logs and the state. Lost (another instance's claim 2): nothing.
    const codes = [await save([base + "_a", base + "_b"], 1), await save([base + "_c", base + "_d"], 2)];
    const count = (ids) => db.operationLog.count({ where: { id: { in: ids } } });
    const logs = [await count([base + "_a", base + "_b"]), await count([base + "_c", base + "_d"])];
    const state = (await db.workflowRun.findUnique({ where: { id: run.id } })).state;
    // A callback that sends a statement, or uses its tx as Prisma's, cannot be captured: null, nothing sent.
    const preparedInTx = pick(await import("./lib/db/write.ts"), "preparedInTx");
    const read = preparedInTx(() => ({ compile: () => ({ sql: "select 1", parameters: [] }) }));
    const uncaptured = [
      await captureDeferred(async (tx) => { await writeLog(tx, rowOf(base + "_e")); await read(tx, {}); }),
      await captureDeferred(async (tx) => { await tx.operationLog.count(); }),
    ];
    return { codes, logs, state, uncaptured };
    `,
    { team: team.id },
  );
  expect(out.codes).toEqual([null, "22012"]);
  expect(out.uncaptured).toEqual([null, null]);
  expect(out.logs).toEqual([2, 0]);
  expect(JSON.parse(out.state).saved).toHaveLength(2);
});

test("on SQLite, a run's node is saved in one batch run at once, and a lost claim or a broken key undoes all of it", async () => {
  test.skip(engine !== "sqlite", "PostgreSQL saves a node in one statement (the test above)");
  const team = await seedTeam({ name: "Batch Co" });
  const out = await inDatabase<{
    codes: (string | null)[];
    logs: number[];
    state: string;
    notOne: string;
    after: string;
  }>(
    `${COUNT_STATEMENTS}
    const captureDeferred = pick(await import("./lib/db/tx-connection.ts"), "captureDeferred");
    const runPipelined = pick(await import("./lib/db/client.ts"), "runPipelined");
    const transaction = pick(await import("./lib/db/transaction.ts"), "transaction");
    ${RUN_AND_LOG_ROWS}
    const save = async (ids, claims) => {
      // SQLite's deferred writes are collected too when captured (lib/db/write.ts).
      const deferred = await captureDeferred(async (tx) => { for (const id of ids) await writeLog(tx, rowOf(id)); });
      return runPipelined([
        { sql: "BEGIN", values: [] },
        ...deferred,
        { sql: 'update "WorkflowRun" set "state" = ? where "id" = ? and "claims" = ? returning "id"', values: [JSON.stringify({ saved: ids }), run.id, claims], mustMatch: true },
        { sql: "COMMIT", values: [] },
      ]).then(() => null, (e) => e.code ?? e.message);
    };
    const base = "log_batch_" + Date.now();
    // The claim holds: both logs and the state. Lost (claim 2): nothing. A log id taken already: nothing.
    const codes = [
      await save([base + "_a", base + "_b"], 1),
      await save([base + "_c", base + "_d"], 2),
      await save([base + "_e", base + "_a"], 1),
    ];
    const count = (ids) => db.operationLog.count({ where: { id: { in: ids } } });
    const logs = [await count([base + "_a", base + "_b"]), await count([base + "_c", base + "_d"]), await count([base + "_e"])];
    const state = (await db.workflowRun.findUnique({ where: { id: run.id } })).state;
    // Only a whole transaction is a batch.
    const notOne = await runPipelined([{ sql: "select 1", values: [] }]).then(() => "ran", (e) => e.message);
    // The connection was left outside any transaction: Prisma's next one begins and commits.
    await transaction((tx) => tx.team.update({ where: { id: args.team }, data: { name: "After Co" } }));
    const after = (await db.team.findUnique({ where: { id: args.team } })).name;
    return { codes, logs, state, notOne, after };
    `,
    { team: team.id },
  );
  expect(out.codes).toEqual([null, "22012", "P2002"]);
  expect(out.logs).toEqual([2, 0, 0]);
  expect(JSON.parse(out.state).saved).toEqual(expect.arrayContaining([expect.stringMatching(/_a$/)]));
  expect(out.notOne).toMatch(/BEGIN first, COMMIT last/);
  expect(out.after).toBe("After Co");
});

test("on PostgreSQL, a charge is one statement: the balance after it, its attribution rows and the days' rollup, exactly as the five statements wrote them", async () => {
  test.skip(engine !== "postgresql", "SQLite writes the charge in its five statements, in the process");
  const team = await seedTeam({ name: "One charge Co", creditsLimit: 100 });
  const out = await inDatabase<{
    sent: string[];
    trips: number;
    entry: { creditsUsed: number; creditsRemaining: number };
    portions: { connectionId: string | null; credits: number }[];
    days: { connectionId: string; credits: number }[];
    used: number;
  }>(
    `${COUNT_STATEMENTS}
    const transaction = pick(await import("./lib/db/transaction.ts"), "transaction");
    const chargeCredits = pick(await import("./lib/credits/charge-credits.ts"), "chargeCredits");
    const at = Math.floor(Date.now() / 1000);
    const charge = (credits) => transaction((tx) => chargeCredits(tx, {
      teamId: args.team, credits, service: { type: "workflow", id: "wf_x", name: "X" }, user: null, at,
      attribution: [{ connectionId: "conn_a", credits: 2 }, { connectionId: "conn_b", credits: 1 }, { connectionId: "conn_a", credits: 1 }],
    }));
    await charge(5);
    const { result, sent, trips } = await counted(() => charge(5));
    const entry = await db.creditLedgerEntry.findFirst({ where: { id: result.id }, select: { creditsUsed: true, creditsRemaining: true } });
    const portions = await db.usageAttribution.findMany({ where: { ledgerEntryId: result.id }, select: { connectionId: true, credits: true }, orderBy: { connectionId: "asc" } });
    const days = (await db.usageDay.findMany({ where: { teamId: args.team }, orderBy: { connectionId: "asc" } }))
      .map((d) => ({ connectionId: d.connectionId, credits: Number(d.credits) }));
    const used = (await db.team.findUnique({ where: { id: args.team } })).creditsUsed;
    return { sent, trips, entry, portions, days, used };
    `,
    { team: team.id },
  );
  expect(out.sent, out.sent.join("\n")).toHaveLength(3);
  expect(out.sent[0]).toBe("BEGIN");
  expect(out.sent[1]).toMatch(/^WITH "t" AS \( UPDATE "Team" /);
  expect(out.sent[2]).toBe("COMMIT");
  // BEGIN is written with the charge: the team's lock is taken one round trip after the start, not two.
  expect(out.trips).toBe(2);
  expect(out.entry).toEqual({ creditsUsed: 5, creditsRemaining: 90 });
  // Portions of one connection merged; the credit no portion names goes to no connection.
  expect(out.portions).toEqual([
    { connectionId: "conn_a", credits: 3 },
    { connectionId: "conn_b", credits: 1 },
    { connectionId: null, credits: 1 },
  ]);
  expect(out.days).toEqual([
    { connectionId: "", credits: 2 },
    { connectionId: "conn_a", credits: 6 },
    { connectionId: "conn_b", credits: 2 },
  ]);
  expect(out.used).toBe(10);
});

test("on PostgreSQL, a run that succeeds ends in one statement (its logs, its end, its charge), and one whose charge crosses the low-credits threshold ends as before, credits.low marked", async () => {
  test.skip(engine !== "postgresql", "statements are round trips on PostgreSQL; SQLite runs in the process");
  // A billion credits: the threshold's arithmetic is past integer's range (the benchmark's team).
  const big = await seedTeam({ name: "Big Co", creditsLimit: 1_000_000_000 });
  const near = await seedTeam({ name: "Near Co", creditsLimit: 10 });
  const out = await inDatabase<
    Record<
      string,
      { status: string; ends: string[]; transactions: number; logs: number; ledger: number; lowMarked: boolean }
    >
  >(
    `${COUNT_STATEMENTS}
    const runSnapshot = pick(await import("./lib/workflows/queue-run.ts"), "runSnapshot");
    const runAndWait = pick(await import("./lib/workflows/runner.ts"), "runAndWait");
    const nodes = ["a", "b", "c"].map((id) => ({ id, label: id, operation_id: "utility.format_text", input: { template: id } }));
    const runOnce = async (team) => {
      const workflow = await db.workflow.create({ data: { id: "wf_end_" + Math.random().toString(36).slice(2), teamId: team, name: "Ends", nodes } });
      const state = await runSnapshot(team, { nodes, timezone: null, schedule: null, createdByUserId: null }, null);
      const run = await db.workflowRun.create({
        data: {
          id: "run_end_" + Math.random().toString(36).slice(2), teamId: team, workflowId: workflow.id, workflowName: "Ends",
          trigger: "manual", status: "queued", dueAt: BigInt(Date.now()), createdAt: BigInt(Date.now()), state,
        },
      });
      const { result, sent } = await counted(() => runAndWait(run.id));
      const teamRow = await db.team.findUnique({ where: { id: team } });
      return {
        status: result.status,
        ends: sent.filter((s) => s.includes('"matched" as (update "WorkflowRun"')).map((s) => s.slice(0, 60)),
        transactions: sent.filter((s) => s === "BEGIN").length,
        logs: await db.operationLog.count({ where: { sourceRunId: run.id } }),
        ledger: await db.creditLedgerEntry.count({ where: { runId: run.id } }),
        lowMarked: teamRow.creditsLowSentFor !== null,
      };
    };
    await db.team.update({ where: { id: args.near }, data: { creditsUsed: 8, lowCreditsPercent: 10 } });
    return { big: await runOnce(args.big), near: await runOnce(args.near) };
    `,
    { big: big.id, near: near.id },
  );
  // The hold's pipelined BEGIN is the only transaction; the end is the one statement.
  expect(out.big).toEqual({
    status: "success",
    ends: [expect.stringMatching(/^with "deferred_0" as \(insert into "OperationLog"/)],
    transactions: 1,
    logs: 3,
    ledger: 1,
    lowMarked: false,
  });
  // 1 credit left of 10 after the charge: credits.low is due, so the end takes the transaction that sends it.
  expect(out.near).toEqual({
    status: "success",
    ends: [expect.stringMatching(/^with /)],
    transactions: 2,
    logs: 3,
    ledger: 1,
    lowMarked: true,
  });
});
