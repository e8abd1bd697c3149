// Webhook delivery settings from the environment (CONTRACT §6, README "Webhooks").

/**
 * The default delays before each retry, in seconds, each counted from the end of the failed
 * attempt: 10 s, 1 min, 5 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h — ten attempts over about 23.6 h
 * (up to 20 % more with jitter).
 */
export const DEFAULT_RETRY_SCHEDULE_SECONDS = [10, 60, 300, 1800, 3600, 7200, 14400, 28800, 28800];

/** Jitter may lengthen a delay by up to this fraction, never shorten it. */
export const RETRY_JITTER = 0.2;

/** An endpoint whose every attempt has failed for this long is disabled. */
export const DISABLE_AFTER_MS = 3 * 24 * 60 * 60 * 1000;

/** Why an endpoint was turned off, as stored (`disabledReason`) and shown. */
export const DISABLED_BY_FAILURES = "Every delivery attempt failed for 3 days.";
export const DISABLED_BY_OWNER = "Disabled by a team owner.";

/** How long a rotated-out secret keeps signing alongside the new one. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

export function retrySchedule(raw = process.env.WEBHOOK_RETRY_SCHEDULE_SECONDS): number[] {
  if (raw === undefined || raw.trim() === "") return DEFAULT_RETRY_SCHEDULE_SECONDS;
  const delays = raw.split(",").map((s) => Number(s.trim()));
  if (delays.some((d) => !Number.isFinite(d) || d < 0)) {
    throw new Error(
      `WEBHOOK_RETRY_SCHEDULE_SECONDS must be comma-separated non-negative numbers of seconds, got ${JSON.stringify(raw)}`,
    );
  }
  return delays;
}

/** The delay before retry number `retry` (1-based), jittered upward; null when the schedule is spent. */
export function retryDelayMs(retry: number, schedule = retrySchedule(), random = Math.random()): number | null {
  if (retry > schedule.length) return null;
  return Math.round(schedule[retry - 1] * 1000 * (1 + RETRY_JITTER * random));
}

export function deliveryTimeoutMs(): number {
  const v = Number(process.env.WEBHOOK_TIMEOUT_MS ?? 10_000);
  return Number.isFinite(v) && v > 0 ? v : 10_000;
}

/** Development and tests only: http URLs and loopback or private receivers. */
export function privateUrlsAllowed(): boolean {
  const v = process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
  return v === "1" || v === "true";
}
