import { Cron } from "croner";

// Workflow schedules: a five-field cron expression (minute hour day-of-month month day-of-week)
// read in an IANA time zone (UTC when none is given), computed with croner. Across daylight
// saving changes it does what cron does: a time the spring-forward skips runs once, at the same
// time after the jump (02:30 → 03:30), and a time the fall-back repeats runs once, except that a
// schedule for every hour (hour field `*`) runs in both of the repeated hours, as an hourly job must.
// Pure: the editor shows the next runs with the same code the scheduler uses.

const HOUR_MS = 3_600_000;

/** Why `timezone` is not an IANA zone this runtime knows, or null. */
export function timezoneProblem(timezone: string): string | null {
  if (!timezone || timezone.length > 100) return "timezone: must be an IANA time zone such as Europe/Paris or America/New_York";
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: timezone });
    return null;
  } catch {
    return `timezone: ${JSON.stringify(timezone.slice(0, 100))} is not an IANA time zone (e.g. Europe/Paris, America/New_York, UTC)`;
  }
}

/** Why `schedule` is not a usable five-field cron expression, or null. */
export function scheduleProblem(schedule: string): string | null {
  const fields = schedule.trim().split(/\s+/);
  if (schedule.length > 200 || fields.length !== 5) {
    return `schedule: ${JSON.stringify(schedule.slice(0, 200))} is not a cron expression of five fields (minute hour day-of-month month day-of-week), e.g. "0 9 * * 1" for Mondays at 09:00`;
  }
  try {
    const cron = new Cron(fields.join(" "), { paused: true, timezone: "UTC" });
    if (!cron.nextRun(new Date())) return `schedule: ${JSON.stringify(schedule)} never runs`;
    return null;
  } catch (e) {
    const why = String((e as Error)?.message ?? e).replace(/^CronPattern: /, "");
    return `schedule: ${JSON.stringify(schedule.slice(0, 200))} is not a valid cron expression (${why})`;
  }
}

const everyHour = (schedule: string) => schedule.trim().split(/\s+/)[1] === "*";

/** The first run of `schedule` in `timezone` strictly after `after`, or null if it never runs again. */
export function nextRunAfter(schedule: string, timezone: string | null, after: Date): Date | null {
  const pattern = schedule.trim().split(/\s+/).join(" ");
  const zone = timezone || "UTC";
  const cron = new Cron(pattern, { paused: true, timezone: zone });
  // In the second of two repeated hours croner may answer with the first one's time, before `after`.
  let next = cron.nextRun(after);
  for (let k = 1; next && next <= after && k <= 3; k++) next = cron.nextRun(new Date(after.getTime() + k * HOUR_MS));
  if (!next || !everyHour(pattern)) return next;
  // The repeated hour of a fall-back: croner reads wall-clock times and so skips its second
  // occurrence. An hourly schedule's candidate there is a run one hour after a run, at the same
  // wall-clock time (which only happens in a repeated hour).
  let t = cron.nextRun(new Date(after.getTime() - HOUR_MS));
  for (let i = 0; t && t.getTime() + HOUR_MS < next.getTime() && i < 120; i++) {
    const repeat = new Date(t.getTime() + HOUR_MS);
    if (repeat > after && wallClock(repeat, zone) === wallClock(t, zone)) return repeat;
    const following = cron.nextRun(t);
    if (!following || following <= t) break;
    t = following;
  }
  return next;
}

/** The next `count` runs after `after`. */
export function nextRuns(schedule: string, timezone: string | null, after: Date, count: number): Date[] {
  const runs: Date[] = [];
  let from = after;
  while (runs.length < count) {
    const next = nextRunAfter(schedule, timezone, from);
    if (!next) break;
    runs.push(next);
    from = next;
  }
  return runs;
}

const formats = new Map<string, Intl.DateTimeFormat>();
function wallClock(at: Date, zone: string): string {
  let f = formats.get(zone);
  if (!f) formats.set(zone, (f = new Intl.DateTimeFormat("en-GB", { timeZone: zone, dateStyle: "short", timeStyle: "medium", hourCycle: "h23" })));
  return f.format(at);
}

/** A date YYYY-MM-DD as the wall calendar of `timezone` (UTC when null) reads it at `at`. */
export function calendarDate(at: Date, timezone: string | null): string {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone: timezone || "UTC", year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/** `date` (YYYY-MM-DD) moved by `days` calendar days. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
