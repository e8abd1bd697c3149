import type { Page } from "@playwright/test";
import { test, expect, seed } from "../fixtures";
import { seedTeamWithPasswords, signIn } from "../support/browser";

// The Content-Security-Policy is one the app really satisfies: every kind of page renders and
// hydrates in Chromium with no violation reported (console errors or securitypolicyviolation events).

function watchViolations(page: Page) {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  page.on("pageerror", (e) => violations.push(`page error: ${e.message}`));
  return violations;
}

async function recordedViolations(page: Page) {
  return page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
}

test("sign-in, dashboard, connect and invite pages run with no CSP violations", async ({ page, browser }) => {
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const w = window as unknown as { __csp?: string[] };
      (w.__csp ??= []).push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  const violations = watchViolations(page);
  const team = await seedTeamWithPasswords({ name: "CSP Co" });
  await seed("logs", { team: team.id, startedAgo: [5, 50] });
  await signIn(page, team.users[0].email);
  await expect(page.getByRole("navigation", { name: "Sections" })).toBeVisible();
  expect(await recordedViolations(page)).toEqual([]);

  for (const section of ["connections", "auth-links", "logs", "ledger", "settings"]) {
    await page.goto(`/${team.id}/${section}`);
    await page.waitForLoadState("networkidle");
    expect(await recordedViolations(page), section).toEqual([]);
  }

  // The connect page of an auth link, and an invite page, as their visitors see them (no session).
  const link = await page.request.post("/v1/connections/auth-link", {
    headers: { "x-patchbay-team": team.id },
    data: { connection_type: "sandbox_oauth" },
  });
  expect(link.status(), await link.text()).toBe(200);
  const invite = await page.request.post("/api/dashboard/invites", {
    headers: { "x-patchbay-team": team.id },
    data: { email: `csp-${team.id.slice(5).toLowerCase()}@test.patchbay.dev` },
  });
  expect(invite.status(), await invite.text()).toBe(201);
  const visitor = await (await browser.newContext()).newPage();
  const visitorViolations = watchViolations(visitor);
  await visitor.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const w = window as unknown as { __csp?: string[] };
      (w.__csp ??= []).push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  await visitor.goto((await link.json()).url);
  await expect(visitor.getByRole("button", { name: /Continue to/ })).toBeVisible();
  await visitor.waitForLoadState("networkidle");
  expect(await recordedViolations(visitor), "connect page").toEqual([]);
  await visitor.goto((await invite.json()).url);
  await expect(visitor.getByRole("heading", { name: "Join CSP Co" })).toBeVisible();
  await visitor.waitForLoadState("networkidle");
  expect(await recordedViolations(visitor), "invite page").toEqual([]);
  await visitor.goto("/sign-in");
  await visitor.waitForLoadState("networkidle");
  expect(await recordedViolations(visitor), "sign-in page").toEqual([]);

  expect(violations).toEqual([]);
  expect(visitorViolations).toEqual([]);
});
