import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { test, expect, seedTeam, apiAs } from "../fixtures";
import { createLink } from "../support/oauth-flow";

// The sandbox provider's OAuth flow in a real Chromium: an end user opens the auth link,
// continues to the provider, approves, and lands on the success page; the admin's status call
// sees the link connected.

const shots = join(__dirname, "..", ".artifacts", "screenshots");
mkdirSync(shots, { recursive: true });

test("an end user connects a sandbox account through an auth link", async ({ page }) => {
  const api = await apiAs((await seedTeam({ name: "Acme Agency" })).users[0]);
  const link = await createLink(api, { connection_type: "sandbox_oauth", external_id: "client-42" });

  await page.goto(link.url);
  await expect(page.getByRole("heading", { name: "Connect your Sandbox (OAuth) account" })).toBeVisible();
  await expect(page.getByText("Acme Agency").first()).toBeVisible();
  // What the owner allows: reads, then the write the catalogue runs on it, set apart.
  const reads = page.getByRole("region", { name: "Can read" });
  await expect(reads).toContainText("Read your sandbox account's daily reports and its note");
  const writes = page.getByRole("region", { name: "Can change" });
  await expect(writes.getByRole("listitem")).toHaveCount(1);
  await expect(writes.getByRole("listitem")).toContainText("Set a note on your sandbox account");
  // The scopes asked of the provider, each with what it allows.
  await page.getByText("Scopes asked of Sandbox (2)").click();
  const scopes = page.getByRole("list", { name: "Scopes asked of Sandbox" });
  await expect(scopes.getByRole("listitem")).toHaveCount(2);
  await expect(scopes.getByRole("listitem").filter({ hasText: "sandbox.write" })).toContainText(
    "Change your sandbox account's note",
  );
  await expect(page.getByTestId("expiry-countdown")).toContainText(/expires in 2[34] h/);
  await page.screenshot({ path: join(shots, "connect-page.png"), fullPage: true });

  await page.getByRole("button", { name: "Continue to Sandbox" }).click();
  await expect(page.getByRole("heading", { name: "Sandbox" })).toBeVisible();
  // The provider's own consent page names the write scope too.
  await expect(page.getByRole("listitem").filter({ hasText: "sandbox.write" })).toContainText(
    "Change your sandbox account's note",
  );
  await page.getByLabel("Account").fill("browser-user");
  await page.getByRole("button", { name: "Approve" }).click();

  await expect(page.getByRole("heading", { name: "Sandbox (OAuth) connected" })).toBeVisible();
  await page.screenshot({ path: join(shots, "connect-success.png"), fullPage: true });

  const status = await (await api.get(`/v1/connections/auth-links/${link.id}/status`)).json();
  expect(status).toMatchObject({ status: "connected", external_id: "client-42" });
  expect(status.connections[0].display_name).toContain("Sandbox");
});

test("the connect page works on a phone, and a denial can be retried", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const api = await apiAs((await seedTeam({ name: "Acme Agency" })).users[0]);
  const link = await createLink(api, { connection_type: "sandbox_oauth" });
  await page.goto(link.url);
  const button = page.getByRole("button", { name: "Continue to Sandbox" });
  await expect(button).toBeVisible();
  await expect(page.getByRole("region", { name: "Can change" })).toContainText("Set a note on your sandbox account");
  await page.getByText("Scopes asked of Sandbox (2)").click();
  await expect(page.getByRole("list", { name: "Scopes asked of Sandbox" })).toBeVisible();
  // Nothing wider than the screen, the scopes open.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: join(shots, "connect-page-phone.png"), fullPage: true });

  await button.click();
  await page.getByRole("button", { name: "Deny" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Access wasn't granted" })).toBeVisible();
  await page.screenshot({ path: join(shots, "connect-denied-phone.png"), fullPage: true });
  // Back to the provider's page and Approve there: that sign-in was answered already, and the
  // page says so, with Continue right below to start a new one.
  await page.goBack();
  await page.getByRole("button", { name: "Approve" }).click();
  // Filtered: after a client-side navigation Next's route announcer is an (empty) alert too.
  await expect(page.getByRole("alert").filter({ hasText: "already answered" })).toContainText(
    "This sign-in was already answered (access was denied at Sandbox), so answering it again at Sandbox changed nothing.",
  );
  await page.getByRole("button", { name: "Continue to Sandbox" }).click();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("heading", { name: "Sandbox (OAuth) connected" })).toBeVisible();
  // Back → Approve once connected: the success stands, said as such.
  await page.goBack();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("heading", { name: "Sandbox (OAuth) already connected" })).toBeVisible();
  await page.screenshot({ path: join(shots, "connect-already-connected-phone.png"), fullPage: true });
  const status = await (await api.get(`/v1/connections/auth-links/${link.id}/status`)).json();
  expect(status.connections).toHaveLength(1);
});
