import "server-only";
import { db, dbEngine, runPipelined, runRead } from "@/lib/db/client";
import { sql } from "kysely";
import { newId } from "@/lib/security/ids";
import { compiledByShape } from "@/lib/db/read";
import { write } from "@/lib/db/write";
import { claimRows, placeholders } from "@/lib/jobs/claim";
import { startJobLoop } from "@/lib/jobs/job-loop";
import { afterCommit, jobSignal } from "@/lib/db/commit-signals";
import { planDueSlot } from "@/lib/workflows/schedule";
import { logger } from "@/lib/observability/logger";
import { executeRun, RUN_COLUMNS, RUNS, runRowOf, type Claim } from "@/lib/workflows/run-workflow";
import { privateConnectionsOf, runSnapshot } from "@/lib/workflows/queue-run";
import { startEventTriggeredRuns } from "@/lib/workflows/event-triggers";
import {
  concurrency,
  leaseMs,
  MISSED_SLOT_AFTER_MS,
  missedSlotRule,
  POLL_MS,
  teamConcurrency,
} from "@/lib/workflows/config";

// Every instance runs workflows in a worker process of its own (lib/server/workflow-worker-main.ts, started
// by instrumentation.ts), so runs never share an event loop or a SQLite connection with the
// requests the instance serves. Each turn of its job loop (lib/jobs) it starts the runs of due
// schedules, then claims queued runs and runs whose lease lapsed (their instance died) up to its
// concurrency, with lib/jobs' claim (FOR UPDATE SKIP LOCKED on PostgreSQL, a conditional UPDATE
// on SQLite), so a run is executed by one instance at a time. Claims are fair across teams: each
// turn takes the teams' oldest runs in rounds (every team's first, then every team's second …),
// and no team has more than WORKFLOW_TEAM_CONCURRENCY runs going at once across instances, so
// one team's burst of schedules queues behind itself, not in front of everyone else.

const SCHEDULE_BATCH = 200;
const SLOTS_PER_TRANSACTION = 20;

/**
 * Starts one run per due slot of the active scheduled workflows: the slot moves forward with a
 * conditional update (only the instance whose update matched creates the run) and the run's
 * (workflow, slot) is unique besides. Slots missed while no instance ran (a stop of hours) follow
 * WORKFLOW_MISSED_SLOTS (lib/workflows/config.ts): one run for the oldest, or none; the next slot
 * then is the next one after now. Moving the slot is bookkeeping, not an edit: the workflow's
 * `updatedAt` (its page's "changed") keeps its value, and a person's save made meanwhile (which
 * changes it) makes this instance read the workflow again at its next poll. `teamId` limits it
 * to one team (the demo builder's).
 */
export async function scheduleDueWorkflows(now = Date.now(), teamId?: string): Promise<boolean> {
  const due = await db.workflow.findMany({
    where: { active: true, nextRunAt: { lte: BigInt(now) }, ...(teamId && { teamId }) },
    select: {
      id: true,
      teamId: true,
      name: true,
      schedule: true,
      timezone: true,
      nextRunAt: true,
      updatedAt: true,
      nodes: true,
      version: true,
      createdByUserId: true,
      activatedByUserId: true,
    },
    orderBy: { nextRunAt: "asc" },
    take: SCHEDULE_BATCH,
  });
  const rule = missedSlotRule();
  const plans = due.map((wf) => ({
    wf,
    slot: Number(wf.nextRunAt),
    plan: planDueSlot(wf.schedule, wf.timezone, Number(wf.nextRunAt), now, rule, MISSED_SLOT_AFTER_MS),
  }));
  // The private connections of the whole batch in one read, not one per run.
  const known = await privateConnectionsOf(plans.filter((s) => s.plan.run).map((s) => s.wf));
  const slots: DueSlot[] = [];
  for (const { wf, slot, plan } of plans) {
    const state = plan.run ? await runSnapshot(wf.teamId, wf, wf.activatedByUserId, { known }) : null;
    slots.push({ wf, slot, plan, state });
  }
  // A few slots per transaction: at the top of the hour one commit per run was a third of the
  // scheduler's statements; a short transaction keeps SQLite's write lock free for the runs.
  for (let i = 0; i < slots.length; i += SLOTS_PER_TRANSACTION) {
    const some = slots.slice(i, i + SLOTS_PER_TRANSACTION);
    await startSlotsPipelined(some, now);
  }
  return due.length === SCHEDULE_BATCH;
}

type DueSlot = {
  wf: { id: string; teamId: string; name: string; nextRunAt: bigint | null; updatedAt: Date; version: number };
  slot: number;
  plan: ReturnType<typeof planDueSlot>;
  state: string | null;
};

type MoveArgs = { id: string; nextRunAt: number; updatedAt: Date; next: number | null };
// Bookkeeping, not an edit: `updatedAt` keeps its value (no @updatedAt outside Prisma).
const moveSlotBuild = (a: MoveArgs) =>
  write
    .updateTable("Workflow")
    .set({ nextRunAt: a.next })
    .where("id", "=", a.id)
    .where("active", "=", true)
    .where("nextRunAt", "=", a.nextRunAt)
    .where("updatedAt", "=", a.updatedAt as never)
    .returning("id");

/** The run a due slot starts. */
const queuedRun = (wf: DueSlot["wf"], slot: number, state: string, now: number) => ({
  id: newId("run"),
  teamId: wf.teamId,
  workflowId: wf.id,
  workflowName: wf.name,
  trigger: "schedule",
  version: wf.version,
  slotAt: slot,
  status: "queued",
  dueAt: slot,
  createdAt: now,
  state,
  claims: 0,
  nodeIndex: 0,
  reservedCredits: 0,
});
type RunValues = ReturnType<typeof queuedRun>;
const RUN_VALUE_COLUMNS = Object.keys(
  queuedRun({ id: "", teamId: "", name: "", nextRunAt: null, updatedAt: new Date(0), version: 0 }, 0, "", 0),
) as (keyof RunValues)[];

const moveArgs = ({ wf, plan }: DueSlot): MoveArgs => ({
  id: wf.id,
  nextRunAt: Number(wf.nextRunAt),
  updatedAt: wf.updatedAt,
  next: plan.next ? plan.next.getTime() : null,
});

// A transaction's slots in one batch (`runPipelined`): on PostgreSQL one round trip with its
// BEGIN and COMMIT, each slot's move and run one statement (the run inserted from the move's
// RETURNING); on SQLite run at once, the run inserted only if the move just before it changed a row.
const moveCompiled = compiledByShape(moveSlotBuild);
type StartArgs = RunValues & Omit<MoveArgs, "id">;
const startCompiled = compiledByShape((a: StartArgs) =>
  write
    .with("moved", () => moveSlotBuild({ ...a, id: a.workflowId }))
    .insertInto("WorkflowRun")
    .columns(RUN_VALUE_COLUMNS)
    .expression((eb) => eb.selectFrom("moved").select(RUN_VALUE_COLUMNS.map((c) => eb.val(a[c]).as(c))))
    .returning("id"),
);
const insertIfMovedCompiled = compiledByShape((a: RunValues) =>
  write
    .insertInto("WorkflowRun")
    .columns(RUN_VALUE_COLUMNS)
    .expression(
      write.selectNoFrom((eb) => RUN_VALUE_COLUMNS.map((c) => eb.val(a[c]).as(c))).where(sql`changes()`, "=", 1),
    ),
);
const oneStatementPerSlot = dbEngine() === "postgresql";

async function startSlotsPipelined(slots: DueSlot[], now: number) {
  const statements = slots.flatMap((s) => {
    const { id: _workflowId, ...move } = moveArgs(s);
    const run = s.state ? queuedRun(s.wf, s.slot, s.state, now) : null;
    const compiled = !run
      ? [moveCompiled(moveArgs(s))]
      : oneStatementPerSlot
        ? [startCompiled({ ...run, ...move })]
        : [moveCompiled(moveArgs(s)), insertIfMovedCompiled(run)];
    return compiled.map(([sql, values]) => ({ sql, values }));
  });
  const rows = await runPipelined([{ sql: "BEGIN", values: [] }, ...statements, { sql: "COMMIT", values: [] }]);
  let k = 1;
  for (const s of slots) {
    const moved = rows[k].length > 0; // the move's RETURNING (PostgreSQL: the run's, which exists only if it moved)
    k += s.state && !oneStatementPerSlot ? 2 : 1;
    if (!moved) continue; // another instance took this slot, or someone saved it meanwhile
    if (s.state) jobSignal(RUNS).wanted = true;
    else skipped(s);
  }
  afterCommit();
}

const skipped = ({ wf, slot, plan }: DueSlot) =>
  logger.info("skipped a missed schedule slot (WORKFLOW_MISSED_SLOTS=skip)", {
    workflow_id: wf.id,
    slot_at: new Date(slot).toISOString(),
    next_run_at: plan.next?.toISOString() ?? null,
  });

/** What makes a run claimable (queued and due, or running with a lapsed lease); `t` qualifies the columns. */
const due = (t = "") =>
  `((${t}"status" = 'queued' AND ${t}"dueAt" <= ?) OR (${t}"status" = 'running' AND ${t}"leaseUntil" <= ?))`;

/**
 * The due runs to claim next, fairly: ranked within their team by due time, at most as many per
 * team as it has room for under WORKFLOW_TEAM_CONCURRENCY (its runs going now, on any instance,
 * count), taken rank by rank so every team with due work gets its turn.
 */
async function fairCandidates(limit: number, now: number): Promise<string[]> {
  // A read (the claim checks again): on SQLite the reads' own connection, not the writers' turn.
  const rows = (await runRead(
    placeholders(`SELECT "id" FROM (
       SELECT r."id", r."dueAt", ROW_NUMBER() OVER (PARTITION BY r."teamId" ORDER BY r."dueAt", r."id") AS "rank", COALESCE(b."busy", 0) AS "busy"
       FROM "WorkflowRun" r
       LEFT JOIN (SELECT "teamId", COUNT(*) AS "busy" FROM "WorkflowRun" WHERE "status" = 'running' AND "leaseUntil" > ? GROUP BY "teamId") b ON b."teamId" = r."teamId"
       WHERE ${due("r.")}
     ) c WHERE c."rank" + c."busy" <= ? ORDER BY c."rank", c."dueAt" LIMIT ?`),
    [now, now, now, teamConcurrency(), limit],
  )) as { id: string }[];
  return rows.map((r) => r.id);
}

/** Claims up to `limit` runs (or run `only`): queued and due, or running with a lapsed lease (taken over). */
async function claimRuns(limit: number, now = Date.now(), only?: string): Promise<Claim[]> {
  const ids = only ? [only] : await fairCandidates(limit, now);
  if (!ids.length) return [];
  const rows = await claimRows<Record<string, unknown>>({
    table: "WorkflowRun",
    set: `"status" = 'running', "claims" = "claims" + 1, "leaseUntil" = ?, "startedAt" = COALESCE("startedAt", ?)`,
    setParams: [now + leaseMs(), now],
    where: `${due()} AND "id" IN (${ids.map(() => "?").join(", ")})`,
    whereParams: [now, now, ...ids],
    orderBy: `"dueAt"`,
    limit,
    returning: RUN_COLUMNS,
  });
  return rows.map((r) => {
    const row = runRowOf(r);
    return { id: row.id, claims: row.claims, row };
  });
}

/**
 * `workflow run --wait`: runs the run in this process when no instance has claimed it yet (so it
 * also runs with no server up), else waits for the instance that has it; then its outcome.
 */
export async function runAndWait(runId: string, timeoutMs = 15 * 60_000) {
  const [claim] = await claimRuns(1, Date.now(), runId);
  if (claim) await executeRun(claim);
  for (const until = Date.now() + timeoutMs; ;) {
    const run = await db.workflowRun.findUnique({ where: { id: runId }, select: { status: true, credits: true } });
    if (!run) throw new Error(`Run ${runId} is gone: its workflow was deleted while it ran.`);
    // Ended, or parked at an approval step (CONTRACT §13: --wait returns then, saying so).
    if (["success", "error", "refused", "stopped", "waiting_approval"].includes(run.status)) {
      const logs = await db.operationLog.count({ where: { sourceRunId: runId } });
      return { run_id: runId, status: run.status, logs, credits: run.credits ?? 0 };
    }
    if (Date.now() > until)
      throw new Error(
        `Run ${runId} has not ended after ${Math.round(timeoutMs / 60_000)} minutes (status ${run.status}).`,
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}

class Runner {
  private inFlight = 0;
  private loop = startJobLoop({ name: RUNS, pollMs: POLL_MS, work: () => this.work() });
  // Whether the next turn looks for pending events and due schedules, besides claiming: at every
  // poll, on a signal (a commit or the server's wake) and while the last look found more. A run's
  // end only frees a place, so the turn it causes only claims: at the top of the hour that was
  // two of every run's statements.
  private look = true;

  constructor() {
    const lookAndTick = () => {
      this.look = true;
      this.loop.tick();
    };
    setInterval(lookAndTick, POLL_MS).unref();
    jobSignal(RUNS).kick = lookAndTick;
  }

  private async work(): Promise<boolean> {
    let moreScheduled = false;
    if (this.look) {
      this.look = false;
      const moreEvents = await startEventTriggeredRuns();
      moreScheduled = (await scheduleDueWorkflows()) || moreEvents;
      if (moreScheduled) this.look = true;
    }
    const free = concurrency() - this.inFlight;
    if (free <= 0) return moreScheduled;
    const claimed = await claimRuns(free);
    for (const claim of claimed) {
      this.inFlight++;
      void executeRun(claim).finally(() => {
        this.inFlight--;
        this.loop.tick();
      });
    }
    return moreScheduled || claimed.length === free;
  }
}

const global = globalThis as { __patchbayWorkflowRunner?: Runner };

/** Starts this instance's workflow runner once. */
export function startWorkflowRunner() {
  global.__patchbayWorkflowRunner ??= new Runner();
}
