import "server-only";
import { startJobLoop } from "@/lib/jobs/job-loop";
import { logger } from "@/lib/observability/logger";
import { maintainHistory } from "@/lib/history/maintain-history";

/** Hourly by default: partitions are made a whole interval ahead, so an hour's delay never matters. */
const pollMs = () => Number(process.env.HISTORY_MAINTENANCE_POLL_MS ?? 3_600_000);

/** Every instance's history maintenance (partitions ahead, retention), on its job loop; one instance at a time acts. */
export function startHistoryMaintenance() {
  startJobLoop({
    name: "history-maintenance",
    pollMs: pollMs(),
    work: async () => {
      const report = await maintainHistory();
      if (report.created.length || report.dropped.length || Object.keys(report.deleted).length)
        logger.info("history maintenance", report);
    },
  });
}
