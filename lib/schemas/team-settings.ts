import { z } from "zod";

/** PATCH /api/dashboard/team: one or both of the team's settings. */
export const updateTeamSettingsBodySchema = z
  .object({
    low_credits_percent: z
      .number({ error: "low_credits_percent must be a number" })
      .int("low_credits_percent must be a whole number")
      .min(0, "low_credits_percent must be 0 to 100")
      .max(100, "low_credits_percent must be 0 to 100")
      .optional(),
    forbid_self_approval: z.boolean({ error: "forbid_self_approval must be true or false" }).optional(),
  })
  .strict()
  .refine((b) => b.low_credits_percent !== undefined || b.forbid_self_approval !== undefined, {
    message: "send low_credits_percent (0 to 100) or forbid_self_approval (true or false)",
  });
