import { test, expect } from "@playwright/test";
import { duration, nextEnv, runWithProgress } from "@/lib/server/ensure-build";

// A first `npm start` builds for minutes on a small machine (issue 47): what the build prints is
// passed on as it comes, and a quiet stretch is never silent. A stand-in for `next build` (a
// real process printing as Next does when its output is not a terminal) with a short quiet time.

const FAKE_BUILD = `
  console.log("   ▲ Next.js 16 (Turbopack)");
  console.log("   Creating an optimized production build ...");
  setTimeout(() => {
    console.log(" ✓ Compiled successfully in 1s");
    console.log("Route (app)");
    console.log("┌ ○ /");
    console.log("└ ƒ /v1/logs");
    process.exit(Number(process.argv[1] ?? 0));
  }, 1500);
`;

async function fakeBuild(exitCode = 0) {
  const printed: string[] = [];
  const said: string[] = [];
  const code = await runWithProgress(
    process.execPath,
    ["-e", FAKE_BUILD, String(exitCode)],
    { cwd: process.cwd(), env: process.env },
    { log: (m) => said.push(m), print: (l) => printed.push(l), what: "building", quietMs: 250 },
  );
  return { code, printed, said };
}

test("the build's own lines are passed on, its route table left out, and a quiet stretch says what is going on", async () => {
  const { code, printed, said } = await fakeBuild();
  expect(code).toBe(0);
  expect(printed).toEqual([
    "   ▲ Next.js 16 (Turbopack)",
    "   Creating an optimized production build ...",
    " ✓ Compiled successfully in 1s",
  ]);
  // Each names the step the build announced last (none before its first line, on a slow start).
  for (const line of said)
    expect(line).toMatch(
      /^still building(: Creating an optimized production build)? \(\d+ s(; the machine is busy: .*)?\)$/,
    );
  expect(said.filter((line) => line.includes("Creating")).length, said.join("\n")).toBeGreaterThanOrEqual(2);
});

test("a failed build's exit code comes back", async () => {
  expect((await fakeBuild(3)).code).toBe(3);
});

test("durations read as seconds, then minutes and seconds; telemetry is off unless asked for", () => {
  expect(duration(4_400)).toBe("4 s");
  expect(duration(59_400)).toBe("59 s");
  expect(duration(125_000)).toBe("2 min 5 s");
  const before = process.env.NEXT_TELEMETRY_DISABLED;
  try {
    delete process.env.NEXT_TELEMETRY_DISABLED;
    expect(nextEnv()).toEqual({ NEXT_TELEMETRY_DISABLED: "1" });
    process.env.NEXT_TELEMETRY_DISABLED = "0";
    expect(nextEnv()).toEqual({ NEXT_TELEMETRY_DISABLED: "0" });
  } finally {
    if (before === undefined) delete process.env.NEXT_TELEMETRY_DISABLED;
    else process.env.NEXT_TELEMETRY_DISABLED = before;
  }
});
