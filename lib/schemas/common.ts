import { z } from "zod";

const INT64_MAX = BigInt("9223372036854775807");

/**
 * A query parameter holding a non-negative int64 number of Unix seconds. Any int64 is valid;
 * values past what JavaScript counts exactly are far beyond every stored time, so they are
 * clamped rather than refused.
 */
export const unixSecondsParam = z
  .string()
  .regex(/^\d+$/, "must be a whole number of Unix seconds, 0 or more")
  // zod runs this even when the regex failed, so it must not assume digits.
  .refine((s) => !/^\d+$/.test(s) || (s.length <= 19 && BigInt(s) <= INT64_MAX), "is larger than an int64")
  .transform((s) => Math.min(Number(s), Number.MAX_SAFE_INTEGER))
  .meta({ type: "integer", format: "int64", minimum: 0 });

export const limitParam = (max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, `must be a whole number from 1 to ${max}`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, `must be from 1 to ${max}`)
    .optional()
    .transform((n) => n ?? fallback)
    .meta({ type: "integer", minimum: 1, maximum: max, default: fallback });

/** An int64 timestamp field of a response (OpenAPI `format: int64`). */
export const int64 = () => z.number().int().meta({ format: "int64" });

export const cursorParam = z.string().min(1, "is empty; omit it for the first page").max(1024, "is too long");

/** A plain identifier passed as a filter or path value. */
export const idParam = (label: string, max = 255) =>
  z.string().min(1, `${label} is empty`).max(max, `${label} is longer than ${max} characters`);

export const ErrorSchema = z
  .object({ detail: z.any().optional() })
  .meta({ id: "Error", description: "Error body; `detail` says what was wrong." });

export const LogUserSchema = z
  .object({
    id: z.string().nullable(),
    email: z.string().nullable(),
  })
  .meta({ id: "LogUser", description: "Both may be null for system-triggered runs." });

/** Endpoints without parameters still say so when given one. */
export const noParamsSchema = z.object({}).strict();
