import { expect, type Page } from "@playwright/test";
import { join } from "node:path";
import { mkdirSync } from "node:fs";
import { seedTeam, type SeededTeam } from "../fixtures";

export const PASSWORD = "correct horse battery staple";
export const screenshotsDir = join(__dirname, "..", ".artifacts", "screenshots");
mkdirSync(screenshotsDir, { recursive: true });

/** A team whose users all have PASSWORD (the first is the owner). */
export async function seedTeamWithPasswords(options: Parameters<typeof seedTeam>[0] = {}): Promise<SeededTeam> {
  return seedTeam({ ...options, password: PASSWORD });
}

/** Signs in through the sign-in page and waits for the dashboard of the user's first team. */
export async function signIn(page: Page, email: string, password = PASSWORD, callbackUrl?: string) {
  await page.goto(callbackUrl ? `/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}` : "/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);
}

export const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: join(screenshotsDir, `${name}.png`), fullPage: true });
