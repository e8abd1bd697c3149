import { z } from "zod";

// Pieces of operations' output shapes (Operation.output) that many share. A description is the
// field's label in the workflow editor's pickers, so it reads as a marketer would name the field.

/** A report's rows whose columns are the dimensions and metrics the caller chose. */
export const chosenColumnRows = (what: string) =>
  z
    .array(z.record(z.string(), z.unknown()))
    .describe(
      `${what}: one object per row, keyed by the names of the dimensions and metrics asked for (the columns depend on the input).`,
    );

/** The first and last day a report covers. */
export const reportedDates = (what = "Reported dates") =>
  z
    .object({
      start_date: z.string().describe("First day"),
      end_date: z.string().describe("Last day"),
    })
    .describe(what);
