import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS } from "./e2e/support/chromium";

// One server per run (global-setup.ts): the production build on a fresh database, SQLite by
// default or PostgreSQL when DATABASE_URL says so. Browser tests drive the Chromium that
// npm install brings (@sparticuz/chromium, unpacked by global-setup; CHROMIUM_PATH overrides
// it); nothing is downloaded.
export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: true,
  // Two cores: two workers keep them about 91 % busy on SQLite. On PostgreSQL a test also waits
  // on the database server's answers, and two workers left the CPU 16 % idle (CI's PostgreSQL
  // pass, 2026-12-02): a third fills it. Browser tests stay at two (one Chromium each).
  workers: /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "") ? 3 : 2,
  // A test's budget, not an assertion: many tests start CLI and seed processes (a Node process
  // with tsx each, ~1 s on a quiet machine, several beside a CPU burner), and ten of them ran out
  // of 60 s with nothing wrong (issue 32's burner runs). What a test asserts stays exact.
  timeout: 120_000,
  // The suite starts extra servers of its own (instances, webhooks' kill -9 and two-instance
  // runs) on 2 cores: a page's refetch can take longer than the default 5 s then.
  expect: { timeout: 10_000 },
  reporter: [["list"], ["./e2e/support/summary-reporter.ts"], ["./e2e/support/timing-reporter.ts"]],
  outputDir: "e2e/.artifacts/test-results",
  projects: [
    // Checks of the code itself (no server needed; it runs anyway).
    { name: "unit", testDir: "e2e/unit" },
    { name: "api", testDir: "e2e/api" },
    // @patchbay/client against the same server (its own suite lives with the package).
    { name: "client", testDir: "packages/client/test" },
    // After the API and client suites: every /v1 response they received, checked against the OpenAPI document.
    { name: "conformance", testDir: "e2e/conformance", dependencies: ["api", "client"] },
    // The time-sensitive flows through servers and CLIs in UTC, UTC+14 and UTC−11 on one
    // database, answers compared byte for byte (its own servers, one worker).
    {
      name: "time-zones",
      testDir: "e2e/time-zones",
      fullyParallel: false,
      use: {
        browserName: "chromium",
        launchOptions: { executablePath: process.env.CHROMIUM_PATH, args: CHROMIUM_ARGS },
      },
    },
    {
      name: "browser",
      testDir: "e2e/browser",
      workers: 2,
      use: {
        browserName: "chromium",
        launchOptions: {
          // Set by global-setup before the workers start.
          executablePath: process.env.CHROMIUM_PATH,
          args: CHROMIUM_ARGS,
        },
        viewport: { width: 1280, height: 800 },
        baseURL: process.env.BASE_URL,
      },
    },
  ],
});
