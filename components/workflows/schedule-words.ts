// A five-field cron expression (minute hour day-of-month month day-of-week) in words, for the
// common shapes; anything else is shown as the expression itself. The next runs the server
// computes (workflow-schedule) are the authority; this is the one-line summary.

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const DAY_NAMES: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

const isNumber = (s: string) => /^\d{1,2}$/.test(s);
const pad = (n: number) => String(n).padStart(2, "0");
const list = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th"}`;

/**
 * A day-of-week field as names ("Monday", "weekdays", "Mondays and Thursdays"), or null when it is
 * not a simple one.
 */
function daysOfWeek(field: string): string | null {
  if (field === "1-5" || field.toLowerCase() === "mon-fri") return "weekdays";
  if (field === "0,6" || field === "6,0" || field.toLowerCase() === "sat,sun") return "weekends";
  const parts = field.split(",");
  const days: number[] = [];
  for (const p of parts) {
    const d = isNumber(p) ? Number(p) % 7 : DAY_NAMES[p.toLowerCase()];
    if (d === undefined || Number(p) > 7) return null;
    days.push(d);
  }
  return days.length === 1 ? DAYS[days[0]] : list(days.map((d) => `${DAYS[d]}s`));
}

/** "Every Monday at 09:00", "Every hour at :15", "Every 5 minutes", or `Cron "…"`. */
export function describeSchedule(schedule: string): string {
  const fields = schedule.trim().split(/\s+/);
  const fallback = `Cron “${schedule.trim()}”`;
  if (fields.length !== 5) return fallback;
  const [minute, hour, dom, month, dow] = fields;
  if (month !== "*") {
    if (
      !isNumber(month) ||
      Number(month) < 1 ||
      Number(month) > 12 ||
      !isNumber(dom) ||
      !isNumber(minute) ||
      !isNumber(hour) ||
      dow !== "*"
    )
      return fallback;
    return `Every year on ${Number(dom)} ${MONTHS[Number(month) - 1]} at ${pad(Number(hour))}:${pad(Number(minute))}`;
  }
  if (minute === "*" && hour === "*" && dom === "*" && dow === "*") return "Every minute";
  const everyMinutes = /^\*\/(\d{1,2})$/.exec(minute);
  if (everyMinutes && hour === "*" && dom === "*" && dow === "*") return `Every ${everyMinutes[1]} minutes`;
  if (!isNumber(minute)) return fallback;
  const m = Number(minute);
  if (hour === "*" && dom === "*" && dow === "*")
    return m === 0 ? "Every hour, on the hour" : `Every hour at :${pad(m)}`;
  const everyHours = /^\*\/(\d{1,2})$/.exec(hour);
  if (everyHours && dom === "*" && dow === "*") return `Every ${everyHours[1]} hours at :${pad(m)}`;
  const hours = hour.split(",");
  if (!hours.every(isNumber)) return fallback;
  const at = `at ${list(hours.map((h) => `${pad(Number(h))}:${pad(m)}`))}`;
  if (dom === "*" && dow === "*") return `Every day ${at}`;
  if (dom === "*") {
    const days = daysOfWeek(dow);
    if (!days) return fallback;
    return days === "weekdays" || days === "weekends" ? `On ${days} ${at}` : `Every ${days} ${at}`;
  }
  if (dow === "*" && isNumber(dom)) return `Every month on the ${ordinal(Number(dom))} ${at}`;
  return fallback;
}

/** The schedule in words with its zone, or "Manual" for a workflow that only runs when asked. */
export function scheduleSummary(
  schedule: string | null,
  timezone: string | null,
): { words: string; zone: string | null } {
  if (!schedule) return { words: "Manual", zone: null };
  return { words: describeSchedule(schedule), zone: timezone || "UTC" };
}
