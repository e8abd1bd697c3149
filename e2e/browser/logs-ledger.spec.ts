import { readFileSync } from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { apiAs, seed, test, expect } from "../fixtures";
import { screenshot, seedTeamWithPasswords, signIn } from "../support/browser";

type Bulk = {
  workflowId: string;
  logs: number;
  charges: { workflow: number; mcp: number; agent: number };
  now: number;
};

/** Body rows only (the header row is aria-rowindex 1 and has no data-row-index). */
const bodyRows = (page: Page) => page.locator("[role=row][data-row-index]");
const cellTexts = (rows: Locator, column: number) =>
  rows.locator(`[role=gridcell]:nth-child(${column})`).allTextContents();

/** Scrolls the table to its bottom again and again until every page is loaded. */
async function scrollToEnd(page: Page) {
  const scroller = page.getByTestId("data-table-scroll");
  const end = page.getByTestId("end-of-list");
  for (let i = 0; i < 400 && !(await end.isVisible()); i++) {
    await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await page.waitForTimeout(60);
  }
  await expect(end).toBeVisible();
  // The last page has arrived; bring its rows into view.
  await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await end.scrollIntoViewIfNeeded();
  await expect(end).toBeInViewport();
}

function parseCsv(text: string) {
  return text
    .split("\r\n")
    .filter(Boolean)
    .map((line) => line.split(","));
}

test("the logs explorer scrolls through 5,000 logs virtualized, filters by status and by run in the URL, opens a log, and back restores the filter", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const team = await seedTeamWithPasswords({ name: "Logs Co", plan: "free" });
  const bulk = await seed<Bulk>("bulkActivity", { team: team.id, count: 5000 });
  expect(bulk.logs).toBe(5000);
  // One log from before the free plan's 1-day window: the window hides it, and the list says so.
  await seed("logs", { team: team.id, operationId: "aged.out", startedAgo: [2 * 86_400] });
  await signIn(page, team.users[0].email);
  await page.goto(`/${team.id}/logs`);
  await expect(bodyRows(page).first()).toBeVisible();

  await scrollToEnd(page);
  await expect(page.getByText("bulk.oldest")).toBeVisible();
  await expect(page.getByTestId("end-of-list")).toContainText("5,000 rows");
  // The plan's window (free: 1 day) is named where the list stops.
  await expect(page.getByTestId("history-window-note")).toContainText("1-day history window");
  const inDom = await bodyRows(page).count();
  expect(inDom).toBeGreaterThan(0);
  expect(inDom).toBeLessThan(100);
  await screenshot(page, "logs-scrolled-to-end");

  // Filter by status: the URL says so and only that status is listed.
  await page.getByLabel("Status").selectOption("error");
  await expect(page).toHaveURL(/[?&]status=error(&|$)/);
  await expect(bodyRows(page).first()).toBeVisible();
  const statuses = await cellTexts(bodyRows(page), 2);
  expect(statuses.length).toBeGreaterThan(5);
  expect(new Set(statuses)).toEqual(new Set(["error"]));

  // Open a workflow log: the detail panel shows its input, output and metadata.
  await bodyRows(page).filter({ hasText: "run_bulk" }).first().click();
  const panel = page.getByRole("dialog");
  await expect(panel).toBeVisible();
  await expect(panel.getByText("Rate limit exceeded (429)")).toBeVisible();
  await expect(panel.getByText('"retry_attempts":')).toBeVisible();
  await expect(panel.getByText("Input", { exact: true })).toBeVisible();
  const runId = (await panel.getByText(/^run_bulk\d+$/).innerText()).trim();
  // The JSON sections fold.
  await panel.getByText("Metadata", { exact: true }).click();
  await expect(panel.getByText('"retry_attempts":')).toBeHidden();
  await panel.getByText("Metadata", { exact: true }).click();
  await screenshot(page, "logs-detail-panel");

  // All steps of this run: the run filter replaces the status filter.
  await panel.getByRole("button", { name: "All steps of this run" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]source_run_id=${runId}(&|$)`));
  await expect(page).not.toHaveURL(/status=/);
  await expect(page.getByTestId("end-of-list")).toContainText("4 rows");
  expect(new Set(await cellTexts(bodyRows(page), 5))).toEqual(new Set([runId]));
  expect(await cellTexts(bodyRows(page), 2)).toContain("success");
  await expect(page.getByLabel("Run ID")).toHaveValue(runId);

  // Back restores the status filter, in the URL, the controls and the rows.
  await page.goBack();
  await expect(page).toHaveURL(/[?&]status=error(&|$)/);
  await expect(page).not.toHaveURL(/source_run_id=/);
  await expect(page.getByLabel("Status")).toHaveValue("error");
  await expect(page.getByLabel("Run ID")).toHaveValue("");
  await expect(bodyRows(page).first()).toBeVisible();
  expect(new Set(await cellTexts(bodyRows(page), 2))).toEqual(new Set(["error"]));
  await screenshot(page, "logs-filtered-after-back");
});

test("the logs explorer says what to do when empty and shows the API's detail for a bad filter", async ({ page }) => {
  const team = await seedTeamWithPasswords({ name: "Quiet Co", plan: "pro" });
  await signIn(page, team.users[0].email);
  await page.goto(`/${team.id}/logs`);
  await expect(page.getByText("No logs yet")).toBeVisible();
  // The window is named, but nothing older exists: no note about older logs being hidden.
  await expect(page.getByText("History window: last 7 days")).toBeVisible();
  await expect(page.getByText("7-day history window")).toHaveCount(0);
  await expect(page.getByText("Older logs are outside")).toHaveCount(0);
  await page.goto(`/${team.id}/logs?started_after=yesterday`);
  await expect(page.getByRole("alert").filter({ hasText: "started_after: must be a whole number" })).toBeVisible();
  await screenshot(page, "logs-error-state");
  // At phone width the filters stack and the empty state still says what to do.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(new RegExp(`/${team.id}/logs$`));
  await expect(page.getByText("No logs yet")).toBeVisible();
  await screenshot(page, "logs-empty-390");
});

test("the ledger filters in the URL, links a workflow charge to its logs, and exports the full filtered ledger as CSV", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const team = await seedTeamWithPasswords({ name: "Ledger Co", plan: "team" });
  const other = await seedTeamWithPasswords({ name: "Other Co" });
  const bulk = await seed<Bulk>("bulkActivity", { team: team.id, count: 2400 });
  const total = bulk.charges.workflow + bulk.charges.mcp + bulk.charges.agent;
  expect(total).toBe(600);
  await signIn(page, team.users[0].email);
  await page.goto(`/${team.id}/ledger`);
  await expect(bodyRows(page).first()).toBeVisible();

  await page.getByLabel("Service type").selectOption("workflow");
  await expect(page).toHaveURL(/[?&]service_type=workflow(&|$)/);
  await expect(bodyRows(page).first()).toBeVisible();
  expect(new Set(await cellTexts(bodyRows(page), 2))).toEqual(new Set(["workflow"]));
  await scrollToEnd(page);
  await expect(page.getByTestId("end-of-list")).toContainText(`${bulk.charges.workflow} rows`);

  // The filtered count through the public API, page by page.
  const api = await apiAs(team.users[0]);
  let apiCount = 0;
  for (let cursor: string | null = null, first = true; first || cursor; first = false) {
    const res: Awaited<ReturnType<typeof api.get>> = await api.get(
      `/v1/credits/logs?service_type=workflow&limit=1000${cursor ? `&cursor=${cursor}` : ""}`,
    );
    const body = (await res.json()) as { data: unknown[]; next_cursor: string | null };
    apiCount += body.data.length;
    cursor = body.next_cursor;
  }
  expect(apiCount).toBe(bulk.charges.workflow);

  // CSV export of the filtered ledger: a real download, header and one line per charge.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: /Export CSV/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^ledger-.*\.csv$/);
  const csv = parseCsv(readFileSync(await download.path(), "utf8"));
  expect(csv[0]).toEqual([
    "id",
    "created_at",
    "created_at_unix",
    "service_type",
    "service_id",
    "service_name",
    "user_id",
    "user_email",
    "credits_used",
    "credits_remaining",
  ]);
  expect(csv.length - 1).toBe(apiCount);
  expect(new Set(csv.slice(1).map((r) => r[3]))).toEqual(new Set(["workflow"]));
  expect(new Set(csv.slice(1).map((r) => r[0])).size).toBe(apiCount);

  // Unfiltered, the export walks more than one page; another team's ledger is not reachable.
  const all = await page.request.get(`/api/dashboard/ledger.csv?team=${team.id}`);
  expect(all.status()).toBe(200);
  expect(parseCsv(await all.text()).length - 1).toBe(total);
  expect((await page.request.get(`/api/dashboard/ledger.csv?team=${other.id}`)).status()).toBe(404);
  expect((await page.request.get(`/api/dashboard/ledger.csv?team=${team.id}&service_type=nope`)).status()).toBe(400);

  // A workflow charge links to the logs of that workflow around the charge.
  await page.getByTestId("data-table-scroll").evaluate((el) => el.scrollTo({ top: 0 }));
  await page.getByRole("link", { name: "Logs of this charge" }).first().click();
  await expect(page).toHaveURL(
    new RegExp(`/logs\\?source_id=${bulk.workflowId}&started_after=\\d+&started_before=\\d+`),
  );
  await expect(bodyRows(page).first()).toBeVisible();
  const sources = await cellTexts(bodyRows(page), 4);
  expect(sources.length).toBeGreaterThan(0);
  for (const source of sources) expect(source).toMatch(/^workflow\s*Nightly report$/);
  await expect(page.getByLabel("Source ID")).toHaveValue(bulk.workflowId);
  await page.goBack();
  await expect(page).toHaveURL(/\/ledger\?service_type=workflow$/);
  await expect(page.getByLabel("Service type")).toHaveValue("workflow");
  await expect(bodyRows(page).first()).toBeVisible();
  expect(new Set(await cellTexts(bodyRows(page), 2))).toEqual(new Set(["workflow"]));
  await screenshot(page, "ledger-filtered");
});
