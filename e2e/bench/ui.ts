// npm run bench:ui — the logs explorer against the production build with 1,000,000 logs, in
// Debian's Chromium: time from navigation to the first rows visible, frame times while
// scrolling 20,000 rows continuously (requestAnimationFrame deltas), and the JavaScript the
// logs page loads.
//
// BENCH_ROWS (default 1000000) scales the seed; BENCH_SCROLL_ROWS (default 20000) the scroll;
// BENCH_TRACE=file.json records a Chromium trace of the scroll and says where late frames went.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { ensureBuild, freePort, migrateWith, root, startServer } from "../support/server";
import { CHROMIUM_ARGS, chromiumExecutable } from "../support/chromium";
import { seedBenchRows } from "./seed-rows";
import { benchWorkspace } from "./workspace";
import { summariseLateFrames, TRACE_CATEGORIES } from "./trace-summary";

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const SCROLL_ROWS = Number(process.env.BENCH_SCROLL_ROWS ?? 20_000);
const PASSWORD = "bench-password-1";

const { dbFile, env } = benchWorkspace("bench-ui");

// Runs in the page. A string, not a function: the TypeScript loader would wrap a named inner
// function in a helper that does not exist in the page.
const SCROLL_SCRIPT = `async (target, minFrames = 0) => {
  const box = document.querySelector('[data-testid="data-table-scroll"]');
  const rowHeight = document.querySelector('[role="row"][aria-rowindex]').getBoundingClientRect().height;
  const deltas = [];
  let last = performance.now();
  const started = last;
  await new Promise((done) => {
    function step(now) {
      const delta = now - last;
      deltas.push(delta);
      if (delta > 20) performance.mark('late-frame', { detail: delta });
      last = now;
      if (target > 0) box.scrollTop += rowHeight * 3;
      if ((box.scrollTop / rowHeight >= target && deltas.length > minFrames) || now - started > 180000) return done();
      requestAnimationFrame(step);
    }
    requestAnimationFrame(step);
  });
  return { deltas: deltas.slice(1), rowsPassed: Math.floor(box.scrollTop / rowHeight), seconds: (performance.now() - started) / 1000 };
}`;

const quantile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};

async function main() {
  await ensureBuild();
  migrateWith(env);
  const { createTeam } = await import("@/lib/teams/create-team");
  const { createUser } = await import("@/lib/users/create-user");
  const team = await createTeam({ name: "Bench UI", plan: "team" });
  const user = await createUser({ teamId: team.id, email: "bench-ui@patchbay.dev", role: "owner", password: PASSWORD });
  console.log(`[bench:ui] seeding ${ROWS.toLocaleString()} logs…`);
  const seeded = await seedBenchRows({ file: dbFile }, ROWS, team.id, user.id, user.email);
  console.log(`[bench:ui] seeded in ${(seeded.logsSeconds + seeded.ledgerSeconds).toFixed(1)} s`);

  const port = await freePort();
  const server = await startServer(port, { ...env, PORT: String(port), APP_URL: `http://127.0.0.1:${port}` });
  const browser = await chromium.launch({
    executablePath: await chromiumExecutable(),
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${server.baseUrl}/sign-in`);
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(new RegExp(`/${team.id}$`));

    // Warm the server's route once, as a returning user would have; then measure cold in the page.
    await page.goto(`${server.baseUrl}/${team.id}/logs`);
    await page.locator('[role="row"][aria-rowindex]').first().waitFor();
    await page.goto(`${server.baseUrl}/${team.id}`);

    const firstRows: number[] = [];
    for (let i = 0; i < 5; i++) {
      await page.goto("about:blank");
      const t0 = Date.now();
      await page.goto(`${server.baseUrl}/${team.id}/logs`, { waitUntil: "commit" });
      await page.locator('[role="row"][aria-rowindex]').first().waitFor({ state: "visible" });
      firstRows.push(Date.now() - t0);
    }

    // JavaScript the logs page loads on a cold cache (a fresh context, same session), as sent.
    const cold = await browser.newContext({ storageState: await page.context().storageState() });
    const coldPage = await cold.newPage();
    await coldPage.goto(`${server.baseUrl}/${team.id}/logs`);
    await coldPage.locator('[role="row"][aria-rowindex]').first().waitFor();
    const js = await coldPage.evaluate(() =>
      (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
        .filter((e) => e.initiatorType === "script" || e.name.endsWith(".js"))
        .reduce((a, e) => ({ transfer: a.transfer + e.encodedBodySize, decoded: a.decoded + e.decodedBodySize }), {
          transfer: 0,
          decoded: 0,
        }),
    );
    await cold.close();

    // The same rAF loop without scrolling: the frame rhythm this browser gives an idle page.
    const idle = await page.evaluate<{ deltas: number[] }>(`(${SCROLL_SCRIPT})(0, 300)`);
    const tracePath = process.env.BENCH_TRACE;
    if (tracePath) await browser.startTracing(page, { path: tracePath, categories: TRACE_CATEGORIES });
    const frames = await page.evaluate<{ deltas: number[]; rowsPassed: number; seconds: number }>(
      `(${SCROLL_SCRIPT})(${SCROLL_ROWS})`,
    );
    if (tracePath) {
      await browser.stopTracing();
      console.log(summariseLateFrames(tracePath));
    }

    const firstP50 = quantile(firstRows, 0.5);
    const frameP50 = quantile(frames.deltas, 0.5);
    const frameP95 = quantile(frames.deltas, 0.95);
    const bars = [
      { bar: "first rows visible under 1 s (median of 5 navigations)", value: `${firstP50} ms`, ok: firstP50 < 1000 },
      { bar: "median frame under 16.7 ms while scrolling", value: `${frameP50.toFixed(1)} ms`, ok: frameP50 < 16.7 },
      {
        bar: "95th percentile frame under 33 ms while scrolling",
        value: `${frameP95.toFixed(1)} ms`,
        ok: frameP95 < 33,
      },
      {
        bar: `scrolled ${SCROLL_ROWS.toLocaleString()} rows`,
        value: `${frames.rowsPassed.toLocaleString()} rows in ${frames.seconds.toFixed(1)} s`,
        ok: frames.rowsPassed >= SCROLL_ROWS,
      },
    ];
    const report = [
      `# bench:ui — logs explorer, ${ROWS.toLocaleString()} logs, production build, Chromium (headless)`,
      "",
      `- First rows visible after navigation: ${firstRows.join(", ")} ms (median ${firstP50} ms)`,
      `- Frames while scrolling ${frames.rowsPassed.toLocaleString()} rows (${frames.deltas.length} frames, ${frames.seconds.toFixed(1)} s): median ${frameP50.toFixed(1)} ms, p95 ${frameP95.toFixed(1)} ms, max ${Math.max(...frames.deltas).toFixed(1)} ms`,
      `- JavaScript the logs page loads (cold cache): ${(js.transfer / 1024).toFixed(0)} kB as sent, ${(js.decoded / 1024).toFixed(0)} kB decoded`,
      `- Long frames while scrolling: ${frames.deltas.filter((d) => d > 20).length} over 20 ms (${((100 * frames.deltas.filter((d) => d > 20).length) / frames.deltas.length).toFixed(1)} %), ${frames.deltas.filter((d) => d > 40).length} over 40 ms`,
      `- Idle page, same rAF loop without scrolling (${idle.deltas.length} frames): median ${quantile(idle.deltas, 0.5).toFixed(1)} ms, p95 ${quantile(idle.deltas, 0.95).toFixed(1)} ms, ${idle.deltas.filter((d) => d > 20).length} over 20 ms`,
      "",
      ...bars.map((b) => `- ${b.ok ? "PASS" : "FAIL"} ${b.bar}: ${b.value}`),
    ].join("\n");
    console.log(`\n${report}\n`);
    writeFileSync(join(root, "e2e", ".artifacts", "bench-ui.md"), report);
    process.exitCode = bars.every((b) => b.ok) ? 0 : 1;
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
