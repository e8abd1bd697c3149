import { defineConfig } from "@playwright/test";

// One server per run (global-setup.ts): the production build on a fresh database, SQLite by
// default or PostgreSQL when DATABASE_URL says so.
export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  timeout: 60_000,
  reporter: [["list"], ["./e2e/support/summary-reporter.ts"]],
  outputDir: "e2e/.artifacts/test-results",
  projects: [
    { name: "api", testDir: "e2e/api" },
  ],
});
