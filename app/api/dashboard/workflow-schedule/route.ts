import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { badRequest } from "@/lib/errors/api-error";
import { schedulePreviewQuerySchema } from "@/lib/schemas/workflows";
import { nextRuns, scheduleProblem, timezoneProblem } from "@/lib/workflows/schedule";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/**
 * The editor's preview: the next five runs of a cron expression in a time zone (Unix ms), or a 400
 * saying what is wrong.
 */
export const GET = withSession(async ({ searchParams }) => {
  const q = parseQuery(schedulePreviewQuerySchema, searchParams);
  const problem = scheduleProblem(q.schedule) ?? (q.timezone ? timezoneProblem(q.timezone) : null);
  if (problem) throw badRequest(problem);
  return { next_runs: nextRuns(q.schedule, q.timezone || null, new Date(), 5).map((d) => d.getTime()) };
});

const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
