import { test, expect, seedTeam, apiAs, baseURL } from "../fixtures";
import { createLink } from "../support/oauth-flow";
import { PASSWORD, screenshot, seedTeamWithPasswords, signIn } from "../support/browser";

// The findings of the security review (issue 23) where a browser is involved, in a real
// Chromium: the sign-in page's redirect, the connect flow handed from one browser to another,
// and signing out everywhere.

test("signing in on a page whose callbackUrl points elsewhere lands on this app", async ({ page }) => {
  const team = await seedTeamWithPasswords();
  const app = new URL(baseURL()).origin;
  await page.goto("/sign-in?callbackUrl=/%09/evil.example");
  await page.getByLabel("Email").fill(team.users[0].email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);
  expect(new URL(page.url()).origin).toBe(app);
  // Signed in, the same page sends the browser on at once: still here.
  for (const target of ["/%09/evil.example", "/%5Cevil.example", "/.//evil.example"]) {
    await page.goto(`/sign-in?callbackUrl=${target}`);
    await expect(page).not.toHaveURL(/\/sign-in/);
    expect(new URL(page.url()).origin, target).toBe(app);
  }
});

test("a provider URL started in one browser and approved in another connects nothing; the starting browser completes", async ({
  browser,
}) => {
  const api = await apiAs((await seedTeam({ name: "Attacker Agency" })).users[0]);
  const link = await createLink(api, { connection_type: "sandbox_oauth" });

  // The attacker presses Continue and keeps the provider's URL instead of signing in.
  const attacker = await browser.newContext();
  const attackerPage = await attacker.newPage();
  await attackerPage.goto(link.url);
  await attackerPage.getByRole("button", { name: "Continue to Sandbox" }).click();
  await expect(attackerPage.getByRole("heading", { name: "Sandbox" })).toBeVisible();
  const providerUrl = attackerPage.url();

  // The victim opens it in their own browser and approves with their account.
  const victim = await browser.newContext();
  const victimPage = await victim.newPage();
  await victimPage.goto(providerUrl);
  await victimPage.getByLabel("Account").fill("victim-account");
  await victimPage.getByRole("button", { name: "Approve" }).click();
  await expect(victimPage.getByRole("heading", { name: "The connection didn't complete" })).toBeVisible();
  await expect(victimPage.getByText("started in another browser")).toBeVisible();
  await screenshot(victimPage, "security-connect-other-browser");
  expect(await (await api.get(`/v1/connections/auth-links/${link.id}/status`)).json()).toMatchObject({
    status: "pending",
    connection_id: null,
  });

  // The browser that pressed Continue completes the same attempt.
  await attackerPage.getByLabel("Account").fill("own-account");
  await attackerPage.getByRole("button", { name: "Approve" }).click();
  await expect(attackerPage.getByRole("heading", { name: "Sandbox (OAuth) connected" })).toBeVisible();
  expect(await (await api.get(`/v1/connections/auth-links/${link.id}/status`)).json()).toMatchObject({
    status: "connected",
  });
  await Promise.all([attacker.close(), victim.close()]);
});

test("Sign out everywhere ends this browser's session and another one's", async ({ page, browser }) => {
  const team = await seedTeamWithPasswords();
  const email = team.users[0].email;
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, email);
  await signIn(page, email);
  await page.goto(`/${team.id}/settings/sessions`);
  const section = page.getByRole("region", { name: "Your sessions" });
  await expect(section).toContainText(`Signed in as ${email}`);
  await section.getByRole("button", { name: "Sign out everywhere" }).click();
  const dialog = page.getByRole("dialog", { name: "Sign out everywhere?" });
  await expect(dialog).toContainText("including this one");
  await dialog.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await otherPage.goto(`/${team.id}/settings`);
  await expect(otherPage).toHaveURL(/\/sign-in/);
  // A new sign-in works.
  await signIn(page, email);
  await other.close();
});
