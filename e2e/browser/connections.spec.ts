import { test, expect, seed, apiAs } from "../fixtures";
import { screenshot, seedTeamWithPasswords, signIn } from "../support/browser";
import { startExtraServer, withoutOAuthApps } from "../support/extra-server";

test("create a sandbox_key connection through the dialog (a rejection first), filter by type, delete it with the workflow it deactivates named", async ({
  page,
}) => {
  const team = await seedTeamWithPasswords({ name: "Conn Co" });
  const owner = team.users[0];
  const api = await apiAs(owner);
  await signIn(page, owner.email);
  await page.goto(`/${team.id}/connections`);
  await expect(page.getByRole("heading", { name: "Connections", level: 1 })).toBeVisible();
  await expect(page.getByText("No connections yet.")).toBeVisible();

  // The dialog offers the types of /v1/connections/types; a manual type shows its form beside the guide.
  await page.getByRole("button", { name: "New connection" }).click();
  const dialog = page.getByRole("dialog");
  // Thirty platforms: a search narrows them by name or type id, word by word.
  const search = dialog.getByRole("searchbox", { name: "Search platforms" });
  await search.fill("ads google");
  await expect(dialog.getByRole("button", { name: /^Google Ads/ })).toBeVisible();
  await expect(dialog.getByRole("button", { name: /Sandbox/ })).toHaveCount(0);
  await search.fill("no such platform");
  await expect(dialog.getByText("No platform matches “no such platform”.")).toBeVisible();
  await search.fill("api key");
  await dialog.getByRole("button", { name: /Sandbox \(API key\)/ }).click();
  await expect(dialog.getByRole("heading", { name: "New Sandbox (API key) connection" })).toBeVisible();
  const guide = dialog.getByRole("complementary", { name: "Sandbox (API key) guide" });
  await expect(guide.getByRole("heading", { name: "Sandbox (API key)" })).toBeVisible();
  await expect(guide.getByRole("table")).toContainText("Any value works in the sandbox");

  await dialog.getByLabel("Name").fill("Reporting key");
  await dialog.getByLabel("api_key").fill("bad-key-123");
  await dialog.getByRole("button", { name: "Create connection" }).click();
  const rejection = dialog.getByRole("alert").filter({ hasText: "invalid_api_key" });
  await expect(rejection).toBeVisible();
  await expect(rejection).toContainText("rejected these credentials");
  await screenshot(page, "connections-rejected");

  await dialog.getByLabel("api_key").fill("good-key-123");
  await dialog.getByRole("button", { name: "Create connection" }).click();
  await expect(dialog).toBeHidden();
  const rows = page.getByTestId("connection-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Reporting key");
  await expect(rows.first()).toContainText("Sandbox (API key)");

  const [created] = await (await api.get("/v1/connections?type=sandbox_key")).json();
  expect(created.display_name).toBe("Reporting key");

  // A second connection of another type (a private one), so the type filter has something to hide.
  const res = await api.post("/v1/connections", {
    data: {
      connection_type: "sandbox_whitelabel",
      name: "White label",
      credentials: { client_id: "c", client_secret: "s", refresh_token: "r" },
      is_private: true,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  await page.reload();
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: "White label" })).toContainText("Private");

  await page.getByLabel("Type").selectOption("sandbox_key");
  await expect(page).toHaveURL(/[?&]type=sandbox_key/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Reporting key");
  // The filter lives in the URL: back restores the full list.
  await page.goBack();
  await expect(rows).toHaveCount(2);
  await page.getByLabel("Search names").fill("white");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("White label");
  await page.getByLabel("Search names").fill("");

  // Delete: the confirmation names the active workflow the delete will deactivate.
  const workflow = await seed("workflow", { team: team.id, name: "Nightly sync", connections: [created.id] });
  await rows.filter({ hasText: "Reporting key" }).getByRole("button", { name: "Delete Reporting key" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete Reporting key?" });
  await expect(confirm.getByRole("list", { name: "Workflows to deactivate" })).toContainText("Nightly sync");
  await screenshot(page, "connections-delete-confirm");
  await confirm.getByRole("button", { name: "Delete connection" }).click();
  await expect(confirm).toBeHidden();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("White label");
  expect((await seed("workflowState", { id: workflow.id })).active).toBe(false);
  await screenshot(page, "connections-final");

  // The dashboard endpoint behind the confirmation is scoped like the delete: another team's connection is not found.
  const other = await apiAs((await seedTeamWithPasswords()).users[0]);
  const foreign = await (
    await other.post("/v1/connections", {
      data: { connection_type: "sandbox_key", name: "Theirs", credentials: { api_key: "k" } },
    })
  ).json();
  const res404 = await page.request.get(`/api/dashboard/connections/${foreign.id}/workflows`, {
    headers: { "x-patchbay-team": team.id },
  });
  expect(res404.status()).toBe(404);
});

test("the connections page fits a phone screen and an OAuth type offers an auth link", async ({ page }) => {
  const team = await seedTeamWithPasswords();
  await signIn(page, team.users[0].email);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/${team.id}/connections`);
  await expect(page.getByText("No connections yet.")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByRole("button", { name: "New connection" }).click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /Sandbox \(OAuth\)/ })
    .click();
  await page.getByRole("link", { name: "Generate an auth link" }).click();
  await expect(page).toHaveURL(new RegExp(`/${team.id}/auth-links\\?type=sandbox_oauth`));
  await expect(page.getByLabel("Connection type")).toHaveValue("sandbox_oauth");
  await screenshot(page, "connections-phone-to-auth-links");
});

test("on a server without some OAuth apps, an owner sees those types as not set up with the settings to add; a member does not", async ({
  browser,
}) => {
  const server = await startExtraServer(withoutOAuthApps("LINKEDIN", "TIKTOK", "HUBSPOT", "GOOGLE"));
  try {
    const team = await seedTeamWithPasswords({ members: 2 });
    const owner = await (await browser.newContext({ baseURL: server.baseUrl })).newPage();
    await signIn(owner, team.users[0].email);
    await owner.goto(`/${team.id}/connections`);
    await owner.getByRole("button", { name: "New connection" }).click();
    const dialog = owner.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: "Not set up on this server" })).toBeVisible();
    await expect(dialog.getByTestId("not-set-up-linkedin_ads")).toContainText(
      "SetOAUTH_LINKEDIN_CLIENT_IDOAUTH_LINKEDIN_CLIENT_SECRET",
    );
    await expect(dialog.getByTestId("not-set-up-hubspot")).toContainText("OAUTH_HUBSPOT_CLIENT_SECRET");
    await expect(dialog.getByText(`${server.baseUrl}/oauth/callback`)).toBeVisible();
    // Not offered as something to connect.
    await expect(dialog.getByRole("button", { name: /LinkedIn Ads/ })).toHaveCount(0);
    await screenshot(owner, "connections-not-set-up");
    // A white-label type says what would add auth links to it.
    await dialog.getByRole("button", { name: /Google Analytics 4/ }).click();
    await expect(dialog.getByTestId("oauth-setup-hint")).toContainText(
      "OAUTH_GOOGLE_CLIENT_ID and OAUTH_GOOGLE_CLIENT_SECRET",
    );
    await expect(dialog.getByRole("link", { name: "Generate an auth link" })).toHaveCount(0);

    const member = await (await browser.newContext({ baseURL: server.baseUrl })).newPage();
    await signIn(member, team.users[1].email);
    await member.goto(`/${team.id}/connections`);
    await member.getByRole("button", { name: "New connection" }).click();
    await expect(member.getByRole("dialog").getByRole("button", { name: /Sandbox \(OAuth\)/ })).toBeVisible();
    await expect(member.getByRole("dialog").getByText("Not set up on this server")).toHaveCount(0);
    await expect(member.getByRole("dialog").getByText("LinkedIn Ads")).toHaveCount(0);
  } finally {
    await server.stop();
  }
});
