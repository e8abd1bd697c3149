import type { Page } from "@playwright/test";
import { seed, test, expect } from "../fixtures";
import { screenshot, seedTeamWithPasswords, signIn } from "../support/browser";

// The Logs page's search box (GET /v1/logs?q=…): typed, in the URL, matches marked, Back restores.

const bodyRows = (page: Page) => page.locator("[role=row][data-row-index]");

test("the Logs page searches: matches are marked, the URL carries q, Escape clears, Back restores", async ({
  page,
}) => {
  const team = await seedTeamWithPasswords({ name: "Search Co" });
  const logs = async (ago: number, fields: Record<string, unknown>) =>
    seed("logs", { team: team.id, startedAgo: [ago], ...fields });
  await logs(60, {
    operationId: "ga4.run_report",
    sourceType: "workflow",
    sourceName: "Weekly digest",
    output: { rows: [{ city: "Reykjavik", sessions: 12 }] },
  });
  await logs(120, {
    operationId: "slack.post_message",
    status: "error",
    sourceType: "mcp",
    sourceName: "Ops bridge",
    output: { error: "Channel reykjavik-ops was not found" },
  });
  await logs(180, { operationId: "sandbox.echo", sourceType: "mcp", sourceName: "Quiet", output: { ok: true } });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, team.users[0].email);
  await page.goto(`/${team.id}/logs`);
  await expect(bodyRows(page)).toHaveCount(3);

  const box = page.getByRole("searchbox", { name: "Search" });
  await box.fill("reykj");
  await expect(page).toHaveURL(/[?&]q=reykj(&|$)/);
  await expect(bodyRows(page)).toHaveCount(2);
  // Where the body matched, marked: the output of one, the error of the other.
  const marks = page.locator("[role=row][data-row-index] mark");
  await expect(marks.filter({ hasText: /^Reykj$/ })).toHaveCount(1);
  await expect(marks.filter({ hasText: /^reykj$/ })).toHaveCount(1);
  await expect(bodyRows(page).filter({ hasText: "Channel reykjavik-ops" })).toHaveCount(1);
  await screenshot(page, "logs-search-1440");

  // A word of the operation and one of the source: both marked in their cells.
  await box.fill("run weekly");
  await expect(page).toHaveURL(/[?&]q=run\+weekly(&|$)/);
  await expect(bodyRows(page)).toHaveCount(1);
  await expect(bodyRows(page).locator("mark")).toHaveText(["run", "Weekly"]);
  await expect(bodyRows(page).getByText("in operation or source")).toBeVisible();

  // Nothing matches: the empty state names the search.
  await box.fill("zzyzx");
  await expect(page.getByText("No logs match “zzyzx”")).toBeVisible();

  // Too long: said beside the box, and not sent.
  await box.fill("x".repeat(201));
  await expect(page.getByRole("alert").filter({ hasText: "limit is 200" })).toBeVisible();
  await expect(page).toHaveURL(/[?&]q=zzyzx(&|$)/);

  // Back walks the searches in order; the box follows the URL.
  await page.goBack();
  await expect(page).toHaveURL(/[?&]q=run\+weekly(&|$)/);
  await expect(box).toHaveValue("run weekly");
  await expect(bodyRows(page)).toHaveCount(1);
  await page.goBack();
  await expect(box).toHaveValue("reykj");
  await expect(bodyRows(page)).toHaveCount(2);

  // Escape clears the search: every log again.
  await box.press("Escape");
  await expect(box).toHaveValue("");
  await expect(page).not.toHaveURL(/[?&]q=/);
  await expect(bodyRows(page)).toHaveCount(3);

  // A phone's width: the box and the marks still there.
  await page.setViewportSize({ width: 390, height: 844 });
  await box.fill("reykjavik");
  await expect(bodyRows(page)).toHaveCount(2);
  await expect(page.getByRole("button", { name: "Clear search" })).toBeVisible();
  await screenshot(page, "logs-search-390");
  await page.getByRole("button", { name: "Clear search" }).click();
  await expect(page).not.toHaveURL(/[?&]q=/);

  // A link with a q the API refuses: its reason, not a blank table.
  await page.goto(`/${team.id}/logs?q=${"y".repeat(300)}`);
  await expect(page.getByRole("alert").filter({ hasText: "HTTP 400" })).toContainText("the limit is 200");
});
