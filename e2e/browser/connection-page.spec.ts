import { test, expect, seed, apiAs, cli } from "../fixtures";
import { screenshot, seedTeamWithPasswords, signIn } from "../support/browser";
import type { APIRequestContext, Page } from "@playwright/test";

// Issue 50 in the browser: the Connections list's health and last-used columns, its health,
// duplicates and stale filters (in the URL), duplicates across two external ids, the bulk
// delete that names the workflows first, the Overview's count that leads there, and the page of
// one connection with Check now and Rename; at 390 px too.

const DAY = 86_400;
const uniqueKey = () => `key-${Math.random().toString(36).slice(2)}`;

async function connect(api: APIRequestContext, name: string, apiKey: string, isPrivate = false) {
  const res = await api.post("/v1/connections", {
    data: { connection_type: "sandbox_key", name, credentials: { api_key: apiKey }, is_private: isPrivate },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { id: string };
}

/** Four connections: two of one provider account under two external ids, a stale one and a broken one. */
async function listWorld() {
  const team = await seedTeamWithPasswords({ name: "Agency Co" });
  const api = await apiAs(team.users[0]);
  const shared = uniqueKey();
  const acme = await connect(api, "Acme reporting", shared);
  const globex = await connect(api, "Globex key", shared);
  const lone = await connect(api, "Forgotten key", uniqueKey());
  const broken = await connect(api, "Broken key", uniqueKey());
  await seed("connectionState", { connection: acme.id, externalId: "acme" });
  await seed("connectionState", { connection: globex.id, externalId: "globex" });
  await seed("connectionState", { connection: lone.id, createdAgo: 45 * DAY });
  await seed("connectionState", {
    connection: broken.id,
    health: "needs_reauth",
    healthError: "Sandbox refused its access: invalid_api_key",
  });
  await seed("logs", { team: team.id, connectionId: acme.id, startedAgo: [120], operationId: "sandbox.report" });
  return { team, api, acme, globex, lone, broken };
}

/** The row whose name link is `name` (a duplicate's row names the other one too). */
const rowOf = (page: Page, name: string) =>
  page.getByTestId("connection-row").filter({ has: page.getByRole("link", { name, exact: true }) });

test("the list: health and last-used columns, filters by health, duplicates and stale in the URL, duplicates across two external ids, the Overview's count, and a bulk delete that names the workflows first", async ({
  page,
}) => {
  const { team, globex, lone } = await listWorld();
  await signIn(page, team.users[0].email);

  // The Overview counts what needs attention and leads to the list filtered to it.
  await page.goto(`/${team.id}`);
  const attention = page.getByTestId("connections-attention");
  await expect(attention.getByRole("link", { name: "1 connection needs attention" })).toBeVisible();
  await expect(attention.getByRole("link", { name: "1 stale connection" })).toBeVisible();
  await expect(attention.getByRole("link", { name: "2 duplicates" })).toBeVisible();
  await screenshot(page, "overview-connections-attention");
  await attention.getByRole("link", { name: "1 connection needs attention" }).click();
  await expect(page).toHaveURL(new RegExp(`/${team.id}/connections\\?health=attention$`));
  const rows = page.getByTestId("connection-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Broken key");
  await expect(page.getByLabel("Health", { exact: true })).toHaveValue("attention");
  await expect(rows.first().getByRole("link", { name: "Re-authorize" })).toBeVisible();

  await page.getByLabel("Health", { exact: true }).selectOption("");
  await expect(rows).toHaveCount(4);
  await expect(page).toHaveURL(new RegExp(`/${team.id}/connections$`));

  // Health and last use in their columns; the refused one's badge carries why.
  const brokenBadge = rowOf(page, "Broken key").getByTestId("health-badge").last();
  await expect(brokenBadge).toHaveAttribute("data-health", "needs_reauth");
  await expect(brokenBadge).toHaveAttribute("title", /invalid_api_key/);
  await expect(rowOf(page, "Acme reporting").getByTestId("health-badge").last()).toHaveText("Healthy");
  await expect(rowOf(page, "Acme reporting").getByTestId("last-used")).not.toHaveText("Never");
  await expect(rowOf(page, "Globex key").getByTestId("last-used")).toHaveText("Never");
  await expect(page.getByRole("columnheader", { name: "Last used" })).toBeVisible();

  // The same provider account under two external ids and two names: each names the other.
  await expect(rowOf(page, "Acme reporting").getByTestId("duplicate-mark")).toHaveText("Duplicate of Globex key");
  await expect(rowOf(page, "Globex key").getByTestId("duplicate-mark")).toHaveText("Duplicate of Acme reporting");
  await expect(rowOf(page, "Forgotten key").getByTestId("duplicate-mark")).toHaveCount(0);
  await screenshot(page, "connections-list-health");

  // The boxes follow the URL (they change once the navigation lands), hence click, not check.
  await page.getByRole("checkbox", { name: "Duplicates" }).click();
  await expect(page).toHaveURL(/[?&]duplicates=1/);
  await expect(page.getByRole("checkbox", { name: "Duplicates" })).toBeChecked();
  await expect(rows).toHaveCount(2);
  await page.getByRole("checkbox", { name: "Duplicates" }).click();
  await expect(page).not.toHaveURL(/duplicates=1/);
  await page.getByRole("checkbox", { name: "Stale" }).click();
  await expect(page).toHaveURL(/[?&]stale=1/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Forgotten key");
  await expect(rows.first()).toContainText("Stale");
  // Back restores the unfiltered list; a reload keeps a filter.
  await page.goBack();
  await expect(rows).toHaveCount(4);
  await page.goto(`/${team.id}/connections?duplicates=1&health=healthy`);
  await expect(rows).toHaveCount(2);
  await page.goto(`/${team.id}/connections`);

  // Bulk delete: select two, see the workflow it would deactivate, then delete.
  await seed("workflow", { team: team.id, name: "Nightly sync", connections: [globex.id] });
  await page.getByRole("checkbox", { name: "Select Globex key" }).check();
  await page.getByRole("checkbox", { name: "Select Forgotten key" }).check();
  await expect(page.getByRole("checkbox", { name: "Select all shown" })).not.toBeChecked();
  const selection = page.getByRole("region", { name: "Selection" });
  await expect(selection).toContainText("2 connections selected");
  await selection.getByRole("button", { name: "Delete selected" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete 2 connections?" });
  await expect(confirm.getByRole("list", { name: "Connections to delete" })).toContainText("Forgotten key");
  await expect(confirm.getByRole("list", { name: "Workflows to deactivate" })).toContainText(
    "Nightly sync (uses Globex key)",
  );
  await screenshot(page, "connections-bulk-delete-confirm");
  await confirm.getByRole("button", { name: "Delete 2 connections" }).click();
  await expect(confirm).toBeHidden();
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole("region", { name: "Selection" })).toHaveCount(0);
  // Globex is gone: Acme is no longer anyone's duplicate.
  await expect(rowOf(page, "Acme reporting").getByTestId("duplicate-mark")).toHaveCount(0);
  expect(lone.id).toBeTruthy();
});

test("a connection's page: health with Check now, last use, what uses it, spend, recent errors linked to the logs, consent words and Rename; another member's private one is not found", async ({
  page,
  browser,
}) => {
  const team = await seedTeamWithPasswords({ name: "Page Co", members: 2 });
  const api = await apiAs(team.users[0]);
  const c = await connect(api, "Report key", uniqueKey(), true);
  await seed("billingPeriod", { team: team.id, startedDaysAgo: 3 });
  await seed("workflow", { team: team.id, name: "Weekly report", connections: [c.id] });
  const server = await seed("mcpServer", { team: team.id, name: "Claude desktop" });
  await seed("mcpServerConnections", { server: server.id, connections: [c.id] });
  await seed("charges", {
    team: team.id,
    charges: [
      { credits: 5, type: "workflow", ago: 60, attribution: [{ connectionId: c.id, credits: 5 }] },
      { credits: 2, type: "mcp", ago: DAY + 60, attribution: [{ connectionId: c.id, credits: 2 }] },
    ],
  });
  const failed = await seed<{ ids: string[] }>("logs", {
    team: team.id,
    connectionId: c.id,
    status: "error",
    operationId: "sandbox.report",
    sourceType: "workflow",
    startedAgo: [90],
    output: { error: { message: "The provider answered HTTP 500" } },
  });

  await signIn(page, team.users[0].email);
  await page.goto(`/${team.id}/connections`);
  await page.getByRole("link", { name: "Report key" }).click();
  await expect(page).toHaveURL(new RegExp(`/${team.id}/connections/${c.id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Report key");
  const health = page.getByRole("region", { name: "Health" });
  await expect(health.getByTestId("health-badge")).toHaveText("Healthy");
  await expect(health.getByTestId("checked-at")).toContainText("Checked");
  await expect(page.getByTestId("last-used")).not.toHaveText("Never used");
  const uses = page.getByRole("region", { name: "What uses it" });
  await expect(uses.getByRole("link", { name: "Weekly report" })).toHaveAttribute("href", /\/workflows\/wf_/);
  await expect(uses.getByRole("link", { name: "Claude desktop" })).toBeVisible();
  await expect(uses).toContainText("No agent conversation you can read used it.");
  await expect(page.getByTestId("spend-total")).toHaveText("7");
  await expect(page.locator('[data-testid="spend-day"][data-credits="5"]')).toHaveCount(1);
  const errorLink = page.getByRole("region", { name: "Recent errors" }).getByRole("link");
  await expect(errorLink).toHaveCount(1);
  await expect(errorLink).toContainText("The provider answered HTTP 500");
  await expect(errorLink).toHaveAttribute("href", new RegExp(`log=${failed.ids[0]}`));
  const consent = page.getByRole("region", { name: "What it allows" });
  await expect(consent.getByRole("heading", { name: "Can read" })).toBeVisible();
  await screenshot(page, "connection-page");

  // Check now during the provider's outage: unreachable with the sentence; after it, healthy.
  await cli("sandbox", "outage", "--connection", c.id);
  await page.getByRole("button", { name: "Check now" }).click();
  await expect(health.getByTestId("health-badge")).toHaveText("Unreachable");
  await expect(health.getByTestId("health-error")).not.toBeEmpty();
  await screenshot(page, "connection-page-unreachable");
  await cli("sandbox", "outage", "--connection", c.id, "--end");
  await page.getByRole("button", { name: "Check now" }).click();
  await expect(health.getByTestId("health-badge")).toHaveText("Healthy");
  await expect(health.getByTestId("health-error")).toHaveCount(0);

  // Rename: a blank name is refused with the reason; a good one replaces the heading.
  await page.getByRole("button", { name: "Rename" }).click();
  const dialog = page.getByRole("dialog", { name: "Rename connection" });
  await dialog.getByLabel("Name").fill("   ");
  await dialog.getByRole("button", { name: "Save name" }).click();
  await expect(dialog.getByRole("alert")).toContainText("must not be empty or blank");
  await dialog.getByLabel("Name").fill("Quarterly report key");
  await dialog.getByRole("button", { name: "Save name" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Quarterly report key");
  expect((await (await api.get(`/v1/connections/${c.id}`)).json())[0].display_name).toBe("Quarterly report key");

  // The other member: the private connection's page does not exist for them.
  const member = await (await browser.newContext({ baseURL: process.env.BASE_URL })).newPage();
  await signIn(member, team.users[1].email);
  await member.goto(`/${team.id}/connections/${c.id}`);
  await expect(member.getByRole("heading", { level: 1 })).toHaveText("Page not found");
  await member.close();
});

test("at 390 px the list and a connection's page fit the screen", async ({ page }) => {
  const { team, acme } = await listWorld();
  await seed("billingPeriod", { team: team.id, startedDaysAgo: 2 });
  await seed("charges", {
    team: team.id,
    charges: [{ credits: 3, type: "mcp", ago: 60, attribution: [{ connectionId: acme.id, credits: 3 }] }],
  });
  await signIn(page, team.users[0].email);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/${team.id}/connections`);
  await expect(page.getByTestId("connection-row")).toHaveCount(4);
  // The health badge moves under the name on a phone.
  await expect(rowOf(page, "Broken key").getByTestId("health-badge").first()).toBeVisible();
  await expect(rowOf(page, "Acme reporting").getByTestId("duplicate-mark")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, "connections-list-phone");
  await page.getByRole("link", { name: "Acme reporting", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Acme reporting");
  await expect(page.getByTestId("spend-total")).toHaveText("3");
  await expect(
    page.getByRole("region", { name: "Same account" }).getByRole("link", { name: "Globex key" }),
  ).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, "connection-page-phone");
});
