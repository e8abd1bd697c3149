import { expect, type Page } from "@playwright/test";
import { join } from "node:path";
import { mkdirSync } from "node:fs";
import { seedTeam, type SeededTeam } from "../fixtures";
import { requestContext } from "./request-context";

export const PASSWORD = "correct horse battery staple";
export const screenshotsDir = join(__dirname, "..", ".artifacts", "screenshots");
mkdirSync(screenshotsDir, { recursive: true });

/** A team whose users all have PASSWORD (the first is the owner). */
export async function seedTeamWithPasswords(options: Parameters<typeof seedTeam>[0] = {}): Promise<SeededTeam> {
  return seedTeam({ ...options, password: PASSWORD });
}

/**
 * A new session for `email` in the page's browser context, signed in over HTTP (next-auth's
 * credentials flow, as the sign-in form posts it), then the dashboard of the user's first team
 * (or `callbackUrl`). The form itself is driven by sign-in.spec.ts; this skips its page loads.
 */
export async function signIn(page: Page, email: string, password = PASSWORD, callbackUrl?: string) {
  await page.context().addCookies(await sessionCookies(email, password));
  await page.goto(callbackUrl ?? "/");
  await expect(page).not.toHaveURL(/\/sign-in/);
}

/** A new session's cookies for `email` (one sign-in; every call makes another session). */
async function sessionCookies(email: string, password = PASSWORD) {
  const ctx = await requestContext({ baseURL: process.env.BASE_URL });
  try {
    const { csrfToken } = await (await ctx.get("/api/auth/csrf")).json();
    const res = await ctx.post("/api/auth/callback/credentials", {
      form: { csrfToken, email, password, json: "true" },
      maxRedirects: 0,
    });
    const { cookies } = await ctx.storageState();
    if (!cookies.some((c) => c.name.includes("session-token")))
      throw new Error(`sign-in failed for ${email}: ${res.status()} ${(await res.text()).slice(0, 200)}`);
    return cookies;
  } finally {
    await ctx.dispose();
  }
}

const sharedSessions = new Map<string, ReturnType<typeof sessionCookies>>();

/**
 * Like signIn, with one session per user for this worker, shared by every page that asks: for
 * suites that read a world built once per worker (accessibility.spec.ts) and never sign out.
 */
export async function signInShared(page: Page, email: string, callbackUrl?: string) {
  if (!sharedSessions.has(email)) sharedSessions.set(email, sessionCookies(email));
  await page.context().addCookies(await sharedSessions.get(email)!);
  await page.goto(callbackUrl ?? "/");
  await expect(page).not.toHaveURL(/\/sign-in/);
}

export const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: join(screenshotsDir, `${name}.png`), fullPage: true });
