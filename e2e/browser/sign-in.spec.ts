import { test, expect } from "../fixtures";
import { PASSWORD, screenshot, seedTeamWithPasswords, signIn } from "../support/browser";

test("a wrong password is refused with a clear message; the right one opens the team's dashboard", async ({ page }) => {
  const team = await seedTeamWithPasswords({ name: "Signin Co" });
  const { email } = team.users[0];
  await page.goto("/sign-in");
  // The fixtures' goto returns once React has hydrated the page (e2e/support/hydration.ts), so a
  // click is never lost to a page that is not listening yet.
  expect(await page.evaluate(() => document.documentElement.hasAttribute("data-hydrated"))).toBe(true);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Wrong email or password" })).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in/);

  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/${team.id}$`));
  await expect(page.getByRole("navigation", { name: "Sections" })).toBeVisible();
  await expect(page.getByText("Signin Co")).toBeVisible();
  await screenshot(page, "signed-in");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto(`/${team.id}`);
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);
});

test("repeated wrong passwords are rate limited", async ({ page }) => {
  const team = await seedTeamWithPasswords();
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(team.users[0].email);
  for (let i = 0; i < 11; i++) {
    await page.getByLabel("Password").fill(`wrong-${i}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  }
  await expect(page.getByRole("alert").filter({ hasText: "Too many sign-in attempts" })).toBeVisible();
});

test("the dashboard's session reaches the /v1 API with the user's visibility, and another team's pages are not found", async ({
  page,
}) => {
  const team = await seedTeamWithPasswords();
  const other = await seedTeamWithPasswords();
  await signIn(page, team.users[0].email);
  const res = await page.request.get("/v1/connections", { headers: { "x-patchbay-team": team.id } });
  expect(res.status()).toBe(200);
  const foreign = await page.request.get("/v1/connections", { headers: { "x-patchbay-team": other.id } });
  expect(foreign.status()).toBe(404);
  // A cross-site mutation is refused even with the session cookie.
  const csrf = await page.request.post("/v1/connections/auth-link", {
    headers: { "x-patchbay-team": team.id, origin: "https://evil.example" },
    data: { connection_type: "sandbox_oauth" },
  });
  expect(csrf.status()).toBe(403);
  const page404 = await page.goto(`/${other.id}`);
  expect(page404?.status()).toBe(404);
});
