// bench:scale's ingest side (e2e/bench/scale.ts runs it once per engine, DATABASE_URL set): workflow
// runs recorded through the product's write path, recordOperations (3 logs and the run's charge in
// one transaction), 4 at a time for the given seconds; prints {"runsPerSecond"}.
async function main() {
  const seconds = Number(process.argv[2] ?? 20);
  const { createTeam } = await import("@/lib/teams/create-team");
  const { recordOperations } = await import("@/lib/logs/record-operations");
  const { db } = await import("@/lib/db/client");
  const team = await createTeam({ name: "Ingest team", plan: "team", creditsLimit: 2_000_000_000 });
  const run = async (i: number) => {
    const at = Math.floor(Date.now() / 1000);
    const runId = `run_ingest_${i}`;
    await recordOperations(
      team.id,
      [0, 1, 2].map((n) => ({
        operationId: n === 1 ? "google_ads.search" : "ga4.run_report",
        status: "success" as const,
        source: { type: "workflow" as const, id: "wf_ingest", runId, name: "Ingest" },
        user: null,
        startedAt: at,
        completedAt: at,
        creditsUsed: 1,
        input: { metric: "sessions", days: 7 },
        output: { rows: n, total: i },
      })),
      { credits: 4, service: { type: "workflow", id: "wf_ingest", name: "Ingest" }, user: null, at, runId },
    );
  };
  const end = performance.now() + seconds * 1000;
  let done = 0;
  const worker = async () => {
    while (performance.now() < end) await run(done++);
  };
  const t0 = performance.now();
  await Promise.all([worker(), worker(), worker(), worker()]);
  const rate = done / ((performance.now() - t0) / 1000);
  await db.$disconnect();
  console.log(JSON.stringify({ runsPerSecond: rate }));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
