import { test, expect } from "../fixtures";
import { screenshot, seedTeamWithPasswords, signIn } from "../support/browser";

test("an owner reads the audit log in Settings and filters it by action; a member is told it is for owners", async ({
  page,
  browser,
}) => {
  const team = await seedTeamWithPasswords({ name: "Audit Co", members: 2 });
  const [owner, member] = team.users;
  await signIn(page, owner.email);
  await page.goto(`/${team.id}/settings/api-keys`);

  // Two changes from the dashboard: a key created, a member promoted.
  await page.getByLabel("Key name").fill("Audit CI key");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByTestId("new-api-key")).toBeVisible();
  await page.goto(`/${team.id}/settings/members`);
  await page.getByLabel(`Role of ${member.email}`).selectOption("owner");
  await expect(page.getByLabel(`Role of ${member.email}`)).toHaveValue("owner");

  await page.goto(`/${team.id}/settings/audit-log`);
  const log = page.getByRole("table", { name: "Audit log" });
  const created = log.getByRole("row").filter({ hasText: "API key created" }).filter({ hasText: "Audit CI key" });
  await expect(created).toContainText(owner.email);
  await expect(created).toContainText("via dashboard");
  const promoted = log.getByRole("row").filter({ hasText: "Role changed" });
  await expect(promoted).toContainText("from: member · to: owner");
  await log.scrollIntoViewIfNeeded();
  await screenshot(page, "audit-log-owner");

  await page.getByLabel("Action").selectOption("member.role_change");
  await expect(page).toHaveURL(/audit_action=member\.role_change/);
  await expect(created).toHaveCount(0);
  await expect(promoted).toBeVisible();

  // A member (demoted back first) sees the note, not the table.
  await page.getByLabel("Action").selectOption("");
  await page.goto(`/${team.id}/settings/members`);
  await page.getByLabel(`Role of ${member.email}`).selectOption("member");
  await expect(page.getByLabel(`Role of ${member.email}`)).toHaveValue("member");
  const memberContext = await browser.newContext({ baseURL: process.env.BASE_URL });
  const memberPage = await memberContext.newPage();
  await signIn(memberPage, member.email);
  await memberPage.goto(`/${team.id}/settings/audit-log`);
  await expect(memberPage.getByTestId("audit-owner-notice")).toContainText("Only team owners can read the audit log");
  await expect(memberPage.getByRole("table", { name: "Audit log" })).toHaveCount(0);
  await screenshot(memberPage, "audit-log-member");
  await memberContext.close();
});
