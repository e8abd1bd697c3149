// `npm start` runs this, on an empty database, while a server without background jobs serves the
// sandbox provider (BACKGROUND_JOBS=off): it creates the demo workspace three weeks ago and lives
// its history day by day up to yesterday (and today's scheduled slots up to now), under this
// process's clock (lib/demo/past-clock.ts).
import { realClock, realNow, setClock } from "@/lib/demo/past-clock";
import { logger } from "@/lib/observability/logger";

const DEMO_HISTORY_DAYS = 21;

async function main() {
  const { demoStart, populateDemo, runSchedulesUntil } = await import("@/lib/demo/build-demo");
  const { ensureDemo, DEMO_TEAMMATE } = await import("@/lib/demo/ensure-demo");
  const { db } = await import("@/lib/db/client");
  const firstDay = demoStart(realNow(), DEMO_HISTORY_DAYS);
  setClock(firstDay);
  const demo = await ensureDemo();
  const teammate = await db.user.findUniqueOrThrow({ where: { email: DEMO_TEAMMATE }, select: { id: true } });
  const owner = await db.membership.findFirstOrThrow({
    where: { teamId: demo.teamId, role: "owner" },
    select: { userId: true },
  });
  await populateDemo(
    { teamId: demo.teamId, ownerId: owner.userId, teammateId: teammate.id },
    firstDay,
    DEMO_HISTORY_DAYS,
  );
  // Today's slots that are already past run at their own times too, so the server starts with
  // none due: its scheduler is left only the slots still to come.
  await runSchedulesUntil(demo.teamId, realNow());
  realClock();
  await db.$disconnect();
}

main().catch((e) => {
  logger.error("could not create the demo workspace", { error: e });
  process.exit(1);
});
