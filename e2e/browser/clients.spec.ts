import type { Page } from "@playwright/test";
import { test, expect, seed } from "../fixtures";
import { screenshot, seedTeamWithPasswords, signIn } from "../support/browser";
import { inDatabase } from "../support/in-database";

// The Clients page (issue 50) with 500 clients: virtualized (only the rows in view are in the
// DOM), searched and filtered through the URL, at 1440 and 390 px; a client page shows its
// connections with health and spend, and Connect another platform makes a link for its external_id.

const CLIENTS = 500;
// Every 7th client's connection needs re-authorization, every 11th (not 7th) is unreachable.
const healthOf = (i: number) => (i % 7 === 0 ? "needs_reauth" : i % 11 === 0 ? "unreachable" : "healthy");

/** 499 clients `client-000`… with one sandbox_key connection each, and `acme` with two, charges, logs and a pending link; one connection without a client. */
async function seedClients(teamId: string) {
  return inDatabase<{ acme: string[] }>(
    `
    const { teamId, clients } = args;
    const now = Math.floor(Date.now() / 1000);
    const run = Math.random().toString(36).slice(2, 8);
    const healthOf = (i) => (i % 7 === 0 ? "needs_reauth" : i % 11 === 0 ? "unreachable" : "healthy");
    const rows = [];
    for (let i = 0; i < clients - 1; i++) {
      const id = "conn_cl" + run + "_" + i;
      const health = healthOf(i);
      rows.push({
        id, teamId, type: "sandbox_key", displayName: "Key " + i,
        externalId: "client-" + String(i).padStart(3, "0"),
        credentials: encryptJson({ api_key: "good-key-" + i }, "connection:" + id),
        health, healthError: health === "healthy" ? null : "seeded " + health,
        lastUsedAt: BigInt(now - i * 60),
      });
    }
    const good = "conn_acme" + run + "_a";
    const broken = "conn_acme" + run + "_b";
    rows.push({
      id: good, teamId, type: "sandbox_key", displayName: "Acme reporting", externalId: "acme",
      credentials: encryptJson({ api_key: "good-key-acme" }, "connection:" + good), lastUsedAt: BigInt(now - 30),
    });
    rows.push({
      id: broken, teamId, type: "sandbox_key", displayName: "Acme old key", externalId: "acme",
      credentials: encryptJson({ api_key: "good-key-acme-2" }, "connection:" + broken),
      needsReauthAt: new Date(), health: "needs_reauth", healthError: "Sandbox refused its access: revoked",
    });
    const loose = "conn_loose" + run;
    rows.push({
      id: loose, teamId, type: "sandbox_key", displayName: "No client key", externalId: null,
      credentials: encryptJson({ api_key: "good-key-loose" }, "connection:" + loose),
    });
    await db.connection.createMany({ data: rows });
    // Acme's charges: 5 credits on the good connection, 2 on the broken one (now: the new team's
    // billing period began when it was made, a moment ago).
    // Through the product's charge, which keeps the ledger, its attribution and the day rollup together.
    const charges = await import("./lib/credits/charge-credits.ts");
    const transactions = await import("./lib/db/transaction.ts");
    const chargeCredits = charges.chargeCredits ?? charges.default.chargeCredits;
    const transaction = transactions.transaction ?? transactions.default.transaction;
    for (const [connectionId, credits] of [[good, 5], [broken, 2]]) {
      await transaction((tx) => chargeCredits(tx, {
        teamId, credits, service: { type: "mcp", id: null, name: null }, user: null, at: now,
        attribution: [{ connectionId, credits }],
      }));
    }
    await db.operationLog.createMany({
      data: [
        { id: "log_acme" + run + "_1", teamId, operationId: "sandbox.report", status: "success", sourceType: "mcp",
          startedAt: BigInt(now - 120), completedAt: BigInt(now - 119), creditsUsed: 5, connectionId: good },
        { id: "log_acme" + run + "_2", teamId, operationId: "sandbox.report", status: "error", sourceType: "mcp",
          startedAt: BigInt(now - 100), completedAt: BigInt(now - 99), creditsUsed: 2, connectionId: broken,
          output: JSON.stringify({ message: "the key was revoked" }) },
      ],
    });
    await db.authLink.create({
      data: { id: "al_acme" + run, tokenHash: "seeded-" + run, teamId, connectionType: "sandbox_oauth",
        externalId: "acme", expiresAt: new Date(Date.now() + 3600_000) },
    });
    return { acme: [good, broken] };
    `,
    { teamId, clients: CLIENTS },
  );
}

/** The rows of the Clients grid in the DOM now (without the header row). */
const renderedRows = (page: Page) =>
  page.getByRole("grid", { name: "Clients" }).locator('[role="row"][data-row-index]');

/** Scrolls the table to its end, page after page, until every row is loaded. */
async function scrollToEnd(page: Page) {
  const scroller = page.getByTestId("data-table-scroll");
  const end = page.getByTestId("end-of-list");
  for (let i = 0; i < 40 && !(await end.isVisible()); i++) {
    await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await page.waitForTimeout(150);
  }
  await expect(end).toBeVisible();
}

const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test("500 clients: the Clients page scrolls virtualized, searches and filters by health through the URL, at 1440 and 390 px", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const team = await seedTeamWithPasswords({ name: "Agency Co" });
  await seedClients(team.id);
  await signIn(page, team.users[0].email);
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Clients" }).click();
  await expect(page).toHaveURL(new RegExp(`/${team.id}/clients$`));
  await expect(page.getByRole("heading", { name: "Clients", level: 1 })).toBeVisible();
  // 500 external ids and the No client group.
  await expect(page.getByTestId("clients-summary")).toContainText("501 clients");
  await expect(renderedRows(page).first()).toContainText("No client");
  await expect(renderedRows(page).nth(1)).toContainText("acme");
  expect(await renderedRows(page).count()).toBeLessThan(60);
  expect(await sideways(page)).toBeLessThanOrEqual(0);
  await screenshot(page, "clients-1440");

  await scrollToEnd(page);
  await expect(page.getByTestId("end-of-list")).toContainText("501 rows");
  await expect(renderedRows(page).last()).toContainText("client-498");
  expect(await renderedRows(page).count()).toBeLessThan(60);

  // Search: the URL carries it, the rows follow.
  await page.getByLabel("Search clients").fill("client-42");
  await expect(page).toHaveURL(/[?&]q=client-42/);
  await expect(page.getByTestId("clients-summary")).toContainText("10 clients match");
  await expect(renderedRows(page)).toHaveCount(10);

  // Health: the clients with a connection that needs re-authorization, each with that badge.
  await page.getByLabel("Search clients").fill("");
  await page.getByLabel("Search clients").press("Enter");
  await page.getByLabel("Health").selectOption("needs_reauth");
  await expect(page).toHaveURL(/[?&]health=needs_reauth/);
  const broken =
    Array.from({ length: CLIENTS - 1 }, (_, i) => i).filter((i) => healthOf(i) === "needs_reauth").length + 1;
  await expect(page.getByTestId("clients-summary")).toContainText(`${broken} clients match`);
  const badges = renderedRows(page).getByTestId("health-badge");
  await expect(badges.first()).toHaveAttribute("data-health", "needs_reauth");
  for (const health of await badges.evaluateAll((els) => els.map((e) => e.getAttribute("data-health"))))
    expect(health).toBe("needs_reauth");

  // Sorting by credits puts acme, the only client that spent, first.
  await page.getByRole("button", { name: "Sort by Credits" }).click();
  await expect(page).toHaveURL(/[?&]sort=credits/);
  await expect(renderedRows(page).first()).toContainText("acme");
  await expect(renderedRows(page).first().getByRole("gridcell").nth(3)).toHaveText("7");

  // Back restores the previous filter.
  await page.goBack();
  await expect(page).not.toHaveURL(/sort=credits/);

  // A phone: no sideways page scroll; the table scrolls inside its card and still virtualizes.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/${team.id}/clients`);
  await expect(page.getByTestId("clients-summary")).toContainText("501 clients");
  expect(await sideways(page)).toBeLessThanOrEqual(0);
  expect(await renderedRows(page).count()).toBeLessThan(60);
  await page.getByLabel("Search clients").fill("client-1");
  await expect(page.getByTestId("clients-summary")).toContainText("100 clients match");
  await scrollToEnd(page);
  await expect(page.getByTestId("end-of-list")).toContainText("100 rows");
  expect(await sideways(page)).toBeLessThanOrEqual(0);
  await screenshot(page, "clients-390");
});

test("a client page shows its connections with health and spend, checks them, exports its usage and makes an auth link for its external_id", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const team = await seedTeamWithPasswords({ name: "Acme Agency" });
  const { acme } = await seedClients(team.id);
  await seed("workflow", { team: team.id, name: "Acme weekly report", connections: [acme[0]] });
  await signIn(page, team.users[0].email);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/${team.id}/clients?q=acme`);
  await page.getByTestId("client-link").filter({ hasText: "acme" }).click();
  await expect(page).toHaveURL(new RegExp(`/${team.id}/clients/acme$`));
  await expect(page.getByRole("heading", { name: "acme", level: 1 })).toBeVisible();
  await expect(page).toHaveTitle("acme · Clients · Patchbay");

  const grid = page.getByRole("grid", { name: "Connections of this client" });
  const rows = grid.locator('[role="row"][data-row-index]');
  await expect(rows).toHaveCount(2);
  const good = rows.filter({ hasText: "Acme reporting" });
  await expect(good.getByTestId("health-badge")).toHaveAttribute("data-health", "healthy");
  await expect(good.getByRole("gridcell").nth(3)).toHaveText("5");
  const bad = rows.filter({ hasText: "Acme old key" });
  await expect(bad.getByTestId("health-badge")).toHaveAttribute("data-health", "needs_reauth");
  await expect(bad.getByRole("gridcell").nth(3)).toHaveText("2");
  await expect(page.getByTestId("client-credits")).toHaveText("7");
  await expect(page.getByTestId("usage-chart")).toBeVisible();
  await expect(page.getByTestId("recent-errors")).toContainText("sandbox.report");
  await expect(page.getByTestId("client-workflows")).toContainText("Acme weekly report");
  expect(await sideways(page)).toBeLessThanOrEqual(0);
  await screenshot(page, "client-acme");

  // The CSV: one line per connection and day.
  const href = await page.getByRole("link", { name: "Download CSV" }).getAttribute("href");
  const csv = await page.request.get(href!);
  expect(csv.status()).toBe(200);
  const text = await csv.text();
  expect(text.split("\r\n")[0]).toBe(
    "day,day_unix,external_id,connection_id,connection_name,connection_type,credits,operations,errors",
  );
  expect(text).toContain(`,acme,${acme[0]},Acme reporting,sandbox_key,5,1,0`);
  expect(text).toContain(`,acme,${acme[1]},Acme old key,sandbox_key,2,1,1`);

  // Check now: the identity call of each connection; the refused one stays refused.
  await page.getByRole("button", { name: "Check now" }).click();
  await expect(page.getByTestId("check-result")).toHaveText(
    "Checked 2 connections: 1 healthy, 1 needs re-authorization.",
  );

  // Connect another platform: the types acme has no connection of come first; the link carries its external_id.
  await page.getByRole("button", { name: "Connect another platform" }).click();
  const dialog = page.getByRole("dialog");
  const select = dialog.getByTestId("connect-platform-type");
  const firstGroup = await select.locator("optgroup").first().getAttribute("label");
  expect(firstGroup).toBe("Not connected yet");
  const offered = await select.locator("optgroup").first().locator("option").allTextContents();
  expect(offered).not.toContain("Sandbox (API key)");
  const chosen = await select.inputValue();
  await dialog.getByRole("button", { name: "Create auth link" }).click();
  await expect(dialog.getByTestId("auth-link-result")).toBeVisible();
  await screenshot(page, "client-connect-platform");
  const links = await inDatabase<{ connectionType: string; externalId: string | null }[]>(
    `return db.authLink.findMany({ where: { teamId: args.teamId, externalId: "acme", tokenHash: { not: { startsWith: "seeded-" } } }, select: { connectionType: true, externalId: true } });`,
    { teamId: team.id },
  );
  expect(links).toEqual([{ connectionType: chosen, externalId: "acme" }]);
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(page.getByText("Pending auth links").locator("..")).toContainText("2");

  // A phone shows the same page without sideways scroll.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(rows).toHaveCount(2);
  expect(await sideways(page)).toBeLessThanOrEqual(0);
  await screenshot(page, "client-acme-390");

  // The No client group has its own page.
  await page.goto(`/${team.id}/clients/~none`);
  await expect(page.getByRole("heading", { name: "No client", level: 1 })).toBeVisible();
  await expect(rows.filter({ hasText: "No client key" })).toHaveCount(1);
});
