import { z } from "zod";
import { OperationInputError } from "@/lib/platforms/kit/operation-types";

// Argument pieces several tools share: calendar dates, date ranges and row limits.

const DAY_MS = 86_400_000;

/** A calendar date YYYY-MM-DD that exists (no 2024-02-30). */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD")
  .refine(
    (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    "is not a calendar date",
  );

/** The UTC date `days` days before today, YYYY-MM-DD. */
function daysAgo(days: number): string {
  return new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);
}

/** start..end (defaults: the `defaultDays` days ending yesterday), refused when reversed or longer than `maxDays`. */
export function dateRangeOrThrow(
  start: string | undefined,
  end: string | undefined,
  { defaultDays = 28, maxDays = 366 } = {},
): { start: string; end: string } {
  const until = end ?? daysAgo(1);
  const since =
    start ?? new Date(Date.parse(`${until}T00:00:00Z`) - (defaultDays - 1) * DAY_MS).toISOString().slice(0, 10);
  const days = (Date.parse(`${until}T00:00:00Z`) - Date.parse(`${since}T00:00:00Z`)) / DAY_MS + 1;
  if (days < 1) throw new OperationInputError(`start_date ${since} is after end_date ${until}.`);
  if (days > maxDays)
    throw new OperationInputError(
      `The date range ${since}..${until} spans ${days} days; at most ${maxDays} are allowed.`,
    );
  return { start: since, end: until };
}

/** How many rows to return: 1..max, `fallback` when not given. */
export const rowLimit = (fallback: number, max = 1000) =>
  z
    .number()
    .int()
    .min(1)
    .max(max)
    .default(fallback)
    .describe(`How many rows to return at most (1-${max}, default ${fallback}).`);

/**
 * A provider's numeric string ("12.30", "1500") as a number; anything else (and integers too long
 * to stay exact) unchanged.
 */
export function numeric(v: unknown): unknown {
  if (typeof v !== "string" || !/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(v)) return v;
  const n = Number(v);
  return Number.isFinite(n) && (!Number.isInteger(n) || Number.isSafeInteger(n)) ? n : v;
}

/** A JSON object (not null, not an array): how the tools read providers' answers defensively. */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
