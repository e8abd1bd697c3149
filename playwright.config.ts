import { defineConfig } from "@playwright/test";

// One server per run (global-setup.ts): the production build on a fresh database, SQLite by
// default or PostgreSQL when DATABASE_URL says so. Browser tests drive Debian's Chromium
// (/usr/bin/chromium); nothing is downloaded.
export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: true,
  workers: 2,
  timeout: 60_000,
  reporter: [["list"], ["./e2e/support/summary-reporter.ts"]],
  outputDir: "e2e/.artifacts/test-results",
  projects: [
    { name: "api", testDir: "e2e/api" },
    {
      name: "browser",
      testDir: "e2e/browser",
      use: {
        browserName: "chromium",
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
          args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
        },
        viewport: { width: 1280, height: 800 },
        // Set by global-setup before the workers start.
        baseURL: process.env.BASE_URL,
      },
    },
  ],
});
