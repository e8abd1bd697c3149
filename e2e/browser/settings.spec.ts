import type { Page } from "@playwright/test";
import { test, expect, seed, anonymous } from "../fixtures";
import { startExtraServer } from "../support/extra-server";
import { screenshot, seedTeamWithPasswords, signIn } from "../support/browser";

test("an owner creates an API key that is shown once and works, then revokes it and it gets 401", async ({
  page,
  context,
}) => {
  const team = await seedTeamWithPasswords({ name: "Keys Co", members: 2 });
  const [owner, member] = team.users;
  await seed("mcpServer", { team: team.id, name: "Reporting MCP", owner: owner.id });
  await seed("mcpServer", { team: team.id, name: "Someone else's private MCP", owner: member.id, isPrivate: true });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, owner.email);
  await page.goto(`/${team.id}/settings/api-keys`);

  await page.getByLabel("Key name").fill("CI key");
  await page.getByRole("button", { name: "Create key" }).click();
  const shown = page.getByTestId("new-api-key");
  await expect(shown).toContainText("shown only this once");
  const key = (await page.getByTestId("new-api-key-value").textContent())!.trim();
  expect(key).toMatch(/^pbk_[0-9A-Za-z]{40}$/);
  await shown.getByRole("button", { name: "Copy" }).click();
  await expect(shown.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

  const api = await anonymous();
  expect((await api.get("/v1/connections", { headers: { authorization: `Bearer ${key}` } })).status()).toBe(200);

  const row = page.getByRole("table", { name: "API keys" }).getByRole("row").filter({ hasText: "CI key" });
  await expect(row).toContainText(key.slice(0, 12));
  await expect(row).toContainText(owner.email);
  await expect(row).toContainText("Active");
  // Shown once: gone after "Done" and never again after a reload.
  await shown.getByRole("button", { name: "Done" }).click();
  await page.reload();
  await expect(row).toBeVisible();
  expect(await page.content()).not.toContain(key);

  await row.getByRole("button", { name: "Revoke CI key" }).click();
  const dialog = page.getByRole("dialog", { name: "Revoke CI key?" });
  await expect(dialog).toContainText(key.slice(0, 12));
  await dialog.getByRole("button", { name: "Revoke key" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText("Revoked");
  const revoked = await api.get("/v1/connections", { headers: { authorization: `Bearer ${key}` } });
  expect(revoked.status()).toBe(401);

  // Another team's key id is not found from this team, and that key keeps working.
  const other = await seedTeamWithPasswords({ name: "Other Co" });
  const foreign = await page.request.delete(`/api/dashboard/api-keys/${other.users[0].keyId}`, {
    headers: { "x-patchbay-team": team.id },
  });
  expect(foreign.status()).toBe(404);
  expect(
    (await api.get("/v1/connections", { headers: { authorization: `Bearer ${other.users[0].key}` } })).status(),
  ).toBe(200);

  // Roles: the only owner cannot demote themselves; promoting the member works.
  await settingsPage(page, "Members");
  await page.getByLabel(`Role of ${owner.email}`).selectOption("member");
  await expect(page.getByRole("alert").filter({ hasText: "only owner" })).toBeVisible();
  await expect(page.getByLabel(`Role of ${owner.email}`)).toHaveValue("owner");
  // The select shows the new role at once; the change is stored when its request answers.
  const saved = page.waitForResponse(
    (r) => r.request().method() === "PATCH" && r.url().includes("/members/") && r.ok(),
  );
  await page.getByLabel(`Role of ${member.email}`).selectOption("owner");
  await saved;
  await expect(page.getByLabel(`Role of ${member.email}`)).toHaveValue("owner");
  const members = await (
    await page.request.get("/api/dashboard/members", { headers: { "x-patchbay-team": team.id } })
  ).json();
  expect(members.data.find((m: { user_id: string }) => m.user_id === member.id).role).toBe("owner");

  await settingsPage(page, "MCP servers");
  const mcp = page.getByRole("list", { name: "MCP servers" });
  await expect(mcp).toContainText("Reporting MCP");
  await expect(mcp).toContainText("Shared");
  await expect(mcp).toContainText("0 connections allowed");
  await expect(mcp).not.toContainText("Someone else's private MCP");
  await screenshot(page, "settings-owner");
});

test("a member cannot reach owner settings: explanations in the page, 403 from the endpoints", async ({ page }) => {
  const team = await seedTeamWithPasswords({ name: "Members Co", members: 2 });
  const [owner, member] = team.users;
  await signIn(page, member.email);
  await page.goto(`/${team.id}/settings/api-keys`);
  await expect(page.getByTestId("api-keys-owner-notice")).toContainText("Only team owners manage API keys");
  await expect(page.getByRole("button", { name: "Create key" })).toHaveCount(0);
  await settingsPage(page, "Members");
  await expect(page.getByRole("list", { name: "Members" })).toContainText(owner.email);
  await expect(page.getByRole("combobox")).toHaveCount(0);
  await settingsPage(page, "MCP servers");
  await expect(page.getByTestId("no-mcp-servers")).toBeVisible();

  const headers = { "x-patchbay-team": team.id };
  for (const res of [
    await page.request.get("/api/dashboard/api-keys", { headers }),
    await page.request.post("/api/dashboard/api-keys", { headers, data: { name: "sneaky" } }),
    await page.request.delete(`/api/dashboard/api-keys/${owner.keyId}`, { headers }),
    await page.request.patch(`/api/dashboard/members/${member.id}`, { headers, data: { role: "owner" } }),
  ]) {
    expect(res.status()).toBe(403);
    expect((await res.json()).detail).toContain("Only team owners");
  }
  // The owner's key still works: the member's attempt changed nothing.
  const api = await anonymous();
  expect((await api.get("/v1/connections", { headers: { authorization: `Bearer ${owner.key}` } })).status()).toBe(200);
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "settings-member-390");
});

test("a Pro team's owner sees that API keys need the Team plan, and the endpoint agrees", async ({ page }) => {
  const team = await seedTeamWithPasswords({ name: "Pro Co", plan: "pro" });
  await signIn(page, team.users[0].email);
  await page.goto(`/${team.id}/settings/api-keys`);
  await expect(page.getByTestId("api-keys-plan-notice")).toContainText("API keys need the Team plan");
  await expect(page.getByTestId("api-keys-plan-notice")).toContainText("command line work on any plan");
  await expect(page.getByRole("button", { name: "Create key" })).toHaveCount(0);
  const res = await page.request.post("/api/dashboard/api-keys", {
    headers: { "x-patchbay-team": team.id },
    data: { name: "nope" },
  });
  expect(res.status()).toBe(403);
  expect((await res.json()).detail).toContain("Team plan");
  await screenshot(page, "settings-pro-plan");
});

/** Opens a settings page from the settings navigation and waits for it to be the current one. */
async function settingsPage(page: Page, name: string) {
  const link = page.getByRole("navigation", { name: "Settings pages" }).getByRole("link", { name, exact: true });
  await link.click();
  await expect(link).toHaveAttribute("aria-current", "page");
}

test("Settings is sub-pages with their own URLs: /settings opens the first, each page shows only its cards, an unknown one is 404", async ({
  page,
}) => {
  const team = await seedTeamWithPasswords({ name: "Sub-pages Co" });
  await signIn(page, team.users[0].email);
  await page.goto(`/${team.id}/settings`);
  await expect(page).toHaveURL(new RegExp(`/${team.id}/settings/members$`));
  const nav = page.getByRole("navigation", { name: "Settings pages" });
  const pages: [string, string, string[]][] = [
    ["Members", "members", ["Members and roles"]],
    ["API keys", "api-keys", ["API keys"]],
    ["MCP servers", "mcp-servers", ["MCP servers", "Approvals"]],
    ["Webhooks", "webhooks", ["Webhooks", "Low-credits alert"]],
    ["Your sessions", "sessions", ["Your sessions", "Your connected apps"]],
    ["Audit log", "audit-log", ["Audit log"]],
    ["Data retention", "data-retention", ["Data retention"]],
  ];
  expect(await nav.getByRole("link").allInnerTexts()).toEqual(pages.map(([label]) => label));
  for (const [label, slug, cards] of pages) {
    await settingsPage(page, label);
    await expect(page).toHaveURL(new RegExp(`/${team.id}/settings/${slug}$`));
    await expect(page.locator("main h2")).toHaveText(cards);
    // What the cards say is true: the Agent files requests too; every family of webhook events is named.
    if (slug === "mcp-servers")
      await expect(page.getByRole("region", { name: "Approvals" })).toContainText(
        "the Agent's, and those of apps on MCP servers",
      );
    if (slug === "webhooks")
      await expect(page.getByRole("region", { name: "Webhooks" })).toContainText(
        "(connections, auth links, credits, approvals, workflow runs)",
      );
    // The sidebar keeps Settings as the current section.
    await expect(
      page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Settings" }),
    ).toHaveAttribute("aria-current", "page");
  }
  const unknown = await page.request.get(`/${team.id}/settings/billing`);
  expect(unknown.status()).toBe(404);
});

test("Data retention shows every member the server's retention and the team's history window, as set", async ({
  page,
  browser,
}) => {
  const postgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "");
  const team = await seedTeamWithPasswords({ name: "Retention Co", plan: "pro", members: 2 });
  // A member (not only owners) sees it; the run's server has the defaults: logs 400 days, the ledger for good.
  await signIn(page, team.users[1].email);
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    await page.goto(`/${team.id}/settings/data-retention`);
    const card = page.getByRole("region", { name: "Data retention" });
    await expect(card.getByTestId("retention-log-days")).toHaveText("400 days");
    await expect(card.getByTestId("retention-history-days")).toHaveText("7 days");
    await expect(card).toContainText("(the pro plan's history window)");
    await expect(card.getByTestId("retention-ledger")).toContainText("Kept for good");
    await expect(card.getByTestId("retention-how")).toContainText(
      postgres ? "monthly partitions" : "deleted in small batches",
    );
    if (postgres)
      await expect(card.getByTestId("retention-how")).toContainText("at least 400 days and at most one month longer");
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, `settings-data-retention-${width}`);
  }

  // Another server's settings, and a team window of its own longer than the logs are kept.
  const server = await startExtraServer({
    LOG_RETENTION_DAYS: "120",
    LEDGER_RETENTION_DAYS: "730",
    LOG_PARTITION_INTERVAL: "week",
  });
  try {
    const wide = await seedTeamWithPasswords({ name: "Long window Co", historyDays: 200 });
    const other = await (await browser.newContext({ baseURL: server.baseUrl })).newPage();
    await signIn(other, wide.users[0].email);
    await other.goto(`/${wide.id}/settings/data-retention`);
    const card = other.getByRole("region", { name: "Data retention" });
    await expect(card.getByTestId("retention-log-days")).toHaveText("120 days");
    await expect(card.getByTestId("retention-history-days")).toHaveText("200 days");
    await expect(card).toContainText("(this team's history window)");
    await expect(card).toContainText("it shows at most 120 days");
    await expect(card.getByTestId("retention-ledger-days")).toHaveText("730 days");
    await expect(card.getByTestId("retention-how")).toContainText(
      postgres ? "weekly partitions" : "deleted in small batches",
    );
    if (postgres) await expect(card.getByTestId("retention-how")).toContainText("at most one week longer");
    await screenshot(other, "settings-data-retention-configured");
  } finally {
    await server.stop();
  }
});
