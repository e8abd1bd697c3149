import { z } from "zod";

/** A query parameter holding a non-negative int64 number of Unix seconds. */
export const unixSecondsParam = z
  .string()
  .regex(/^\d+$/, "must be a whole number of Unix seconds, 0 or more")
  .transform(Number)
  .refine((n) => Number.isSafeInteger(n), "is too large");

export const limitParam = (max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, `must be a whole number from 1 to ${max}`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, `must be from 1 to ${max}`)
    .optional()
    .transform((n) => n ?? fallback);

export const cursorParam = z.string().min(1, "is empty; omit it for the first page").max(1024, "is too long");

/** A plain identifier passed as a filter or path value. */
export const idParam = (label: string, max = 255) => z.string().min(1, `${label} is empty`).max(max, `${label} is longer than ${max} characters`);

export const ErrorSchema = z.object({ detail: z.any().optional() }).meta({ id: "Error", description: "Error body; `detail` says what was wrong." });

export const LogUserSchema = z
  .object({
    id: z.string().nullable(),
    email: z.string().nullable(),
  })
  .meta({ id: "LogUser", description: "Both may be null for system-triggered runs." });

/** Endpoints without parameters still say so when given one. */
export const noParamsSchema = z.object({}).strict();
