// Workflow runner settings from the environment (README "Workflows").

const positive = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return process.env[name] !== undefined && Number.isFinite(v) && v > 0 ? v : fallback;
};

/**
 * How long a claimed run is its instance's; renewed every third of it while the run goes on. A run
 * whose instance died is taken over after this.
 */
export const leaseMs = () => positive("WORKFLOW_LEASE_SECONDS", 30) * 1000;

/** The first retry's delay; the second waits three times as long (with up to 20 % jitter). */
export const retryBaseMs = () => positive("WORKFLOW_RETRY_BASE_MS", 1000);

/** A node's retryable failure (429, 5xx, unreachable) is tried again this many times. */
export const MAX_RETRIES = 2;

/** Runs one instance executes at once. */
export const concurrency = () => Math.floor(positive("WORKFLOW_CONCURRENCY", 16));

/**
 * Runs of one team going at once across all instances: a team's burst waits behind itself, not in
 * front of other teams.
 */
export const teamConcurrency = () => Math.floor(positive("WORKFLOW_TEAM_CONCURRENCY", 8));

/** How often each instance looks for due schedules and runs (a commit in the instance wakes it at once). */
export const POLL_MS = 1000;

/**
 * What the scheduler does with a slot it finds more than MISSED_SLOT_AFTER_MS past its time (no
 * instance was running then): `run_once` (the default) starts one run for the oldest such slot;
 * `skip` starts none. Either way the schedule goes on from its next slot after now.
 */
const MISSED_SLOT_RULES = ["run_once", "skip"] as const;
export type MissedSlotRule = (typeof MISSED_SLOT_RULES)[number];

/** A slot found later than this after its time was missed, not merely picked up late by a busy poll. */
export const MISSED_SLOT_AFTER_MS = 60_000;

let warnedMissedSlots = false;
export function missedSlotRule(): MissedSlotRule {
  const raw = process.env.WORKFLOW_MISSED_SLOTS;
  if (raw === undefined || raw === "") return "run_once";
  if ((MISSED_SLOT_RULES as readonly string[]).includes(raw)) return raw as MissedSlotRule;
  if (!warnedMissedSlots) {
    warnedMissedSlots = true;
    console.warn(
      `WORKFLOW_MISSED_SLOTS=${JSON.stringify(raw.slice(0, 40))} is not one of ${MISSED_SLOT_RULES.join(", ")}; using run_once.`,
    );
  }
  return "run_once";
}
