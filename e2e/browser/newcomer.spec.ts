import type { Page } from "@playwright/test";
import { test, expect, seed, cli, apiAs } from "../fixtures";
import { screenshot, seedTeamWithPasswords, signIn } from "../support/browser";

// What a newcomer sees (issue 33): every dashboard page fits a phone and ends where its content
// ends, the docs are one click away and lead back, and what the pages say is true.

const SECTIONS = [
  "",
  "connections",
  "auth-links",
  "workflows",
  "operations",
  "approvals",
  "logs",
  "ledger",
  "settings/members",
  "settings/api-keys",
  "settings/mcp-servers",
  "settings/webhooks",
  "settings/sessions",
  "settings/audit-log",
];

/** Waits until the page shows its data: a heading, and no loading skeleton left. */
async function settled(page: Page) {
  await expect(page.locator("main h1").first()).toBeVisible();
  await expect(page.locator("main .animate-pulse")).toHaveCount(0, { timeout: 15_000 });
}

/** How far the page scrolls sideways, and how far it runs on below the end of <main>. */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const doc = document.documentElement;
    const main = document.querySelector("main")!;
    return {
      sideways: doc.scrollWidth - window.innerWidth,
      // A short page fills the window (min-h-screen): only what runs on past both counts.
      belowMain: doc.scrollHeight - Math.max(main.getBoundingClientRect().bottom + window.scrollY, window.innerHeight),
    };
  });

test("every dashboard page fits a 390 px phone and a 1440 px screen: no sideways scroll, no blank space after the content", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const team = await seedTeamWithPasswords({ name: "A team with a long name that has to wrap on a phone" });
  // Some of everything: a connection, a workflow with runs, MCP calls, an API key.
  const conn = await (
    await apiAs(team.users[0])
  ).post("/v1/connections", {
    data: { connection_type: "sandbox_key", name: "Phone check", credentials: { api_key: "sk-phone-check" } },
  });
  expect(conn.status()).toBe(200);
  const simulated = await cli(
    "activity",
    "simulate",
    "--team",
    team.id,
    "--workflow-runs",
    "20",
    "--mcp-calls",
    "30",
    "--days",
    "5",
    "--seed",
    "7",
  );
  expect(simulated.code, JSON.stringify(simulated.json)).toBe(0);
  await signIn(page, team.users[0].email);

  const problems: string[] = [];
  for (const [width, height] of [
    [390, 844],
    [1440, 900],
  ]) {
    await page.setViewportSize({ width, height });
    for (const section of SECTIONS) {
      await page.goto(`/${team.id}${section ? `/${section}` : ""}`);
      await settled(page);
      const { sideways, belowMain } = await overflow(page);
      if (sideways > 0) problems.push(`/${section} at ${width} px scrolls ${sideways} px sideways`);
      if (belowMain > 1) problems.push(`/${section} at ${width} px runs ${belowMain} px past its content`);
      if (width === 390) await screenshot(page, `phone-${section.replace("/", "-") || "overview"}`);
    }
  }
  expect(problems).toEqual([]);
});

test("the dashboard links to the docs, and every docs page leads back to the dashboard", async ({ page }) => {
  const team = await seedTeamWithPasswords({ name: "Docs Co" });
  await signIn(page, team.users[0].email);
  await page.getByRole("link", { name: "Docs", exact: true }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Patchbay docs");
  const guides = page.getByRole("main").getByRole("listitem").getByRole("link");
  const hrefs = await guides.evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
  expect(hrefs).toEqual([
    "/docs/api",
    "/docs/connections",
    "/docs/mcp",
    "/docs/operations",
    "/docs/workflows",
    "/docs/webhooks",
  ]);
  for (const href of hrefs) {
    await page.goto(href);
    await page.getByRole("link", { name: "Dashboard", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/${team.id}$`));
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }
});

test("a log opens from its link; a folded object in its JSON shows its size, not an empty brace", async ({ page }) => {
  const team = await seedTeamWithPasswords({ name: "JSON Co" });
  const { ids } = await seed<{ ids: string[] }>("logs", {
    team: team.id,
    startedAgo: [30],
    output: { report: { rows: { first: { sessions: 12 } }, total: 12 } },
  });
  await signIn(page, team.users[0].email);
  await page.goto(`/${team.id}/logs?log=${ids[0]}`);
  const panel = page.getByRole("dialog");
  await expect(panel).toContainText(ids[0]);
  // The output's tree: two levels open; "rows" (the third) folded, saying what it holds.
  const rows = panel.locator("summary", { hasText: '"rows"' });
  await expect(rows).toBeVisible();
  // What shows (innerText): the folded size is hidden once open, and shown again inside.
  await expect(rows).toHaveText(/"rows": \{\s*1 key \}/, { useInnerText: true });
  await rows.click();
  await expect(rows).toHaveText(/"rows": \{$/, { useInnerText: true });
  await expect(panel.locator("summary", { hasText: '"first"' })).toHaveText(/"first": \{\s*1 key \}/, {
    useInnerText: true,
  });
  // Closing puts the logs page back without the log in its URL.
  await page.getByRole("button", { name: "Close log detail" }).click();
  await expect(page).toHaveURL(new RegExp(`/${team.id}/logs$`));
});

test("on a phone the Menu button opens the grouped sections and the docs; choosing one goes there and closes it", async ({
  page,
}) => {
  const team = await seedTeamWithPasswords({ name: "Phone Co" });
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, team.users[0].email);
  const menu = page.getByRole("button", { name: "Menu" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("navigation", { name: "Sections" })).toHaveCount(0);
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  const sections = page.getByRole("navigation", { name: "Sections" });
  for (const group of ["Connect", "Automate", "Activity"]) await expect(sections).toContainText(group);
  await expect(page.getByRole("link", { name: "Docs", exact: true })).toBeVisible();
  await sections.getByRole("link", { name: "Ledger" }).click();
  await expect(page).toHaveURL(new RegExp(`/${team.id}/ledger$`));
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("navigation", { name: "Sections" })).toHaveCount(0);
});
