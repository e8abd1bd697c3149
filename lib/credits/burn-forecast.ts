const DAY = 86_400;

export type BurnForecast =
  | { kind: "exhausted"; perDay: number }
  | { kind: "idle" }
  | { kind: "runs-out"; perDay: number; at: number }
  | { kind: "lasts"; perDay: number };

/**
 * When credits run out at the period's average daily burn so far. Less than a day into a
 * period counts as one day, so the first hour's usage does not forecast a panic.
 * Times are Unix seconds.
 */
export function burnForecast(input: {
  used: number;
  remaining: number;
  periodStart: number;
  periodEnd: number;
  now: number;
}): BurnForecast {
  const elapsedDays = Math.max((input.now - input.periodStart) / DAY, 1);
  const perDay = Math.max(input.used, 0) / elapsedDays;
  if (input.remaining <= 0) return { kind: "exhausted", perDay };
  if (perDay === 0) return { kind: "idle" };
  const at = input.now + (input.remaining / perDay) * DAY;
  return at >= input.periodEnd ? { kind: "lasts", perDay } : { kind: "runs-out", perDay, at: Math.floor(at) };
}
