import { createHash, randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { test, expect, baseURL } from "../fixtures";
import { screenshot, seedTeamWithPasswords, signIn } from "../support/browser";
import { rawMcp } from "../support/mcp";

// Connected apps in the dashboard: an AI client allowed through the real OAuth flow over HTTP
// (registration, the consent page, the token endpoint) is listed under its MCP server and in
// its member's "Your connected apps", and revoking it there ends its access on /mcp.

const REDIRECT_URI = "http://127.0.0.1:9/cb";

/**
 * Registers `clientName` by DCR and allows it on the consent page as the signed-in person,
 * choosing `server` (an existing server's name) or the default new private server named after
 * the app. Returns what the client needs to exchange its code.
 */
async function allowApp(page: Page, clientName: string, server?: string) {
  const registered = await fetch(`${baseURL()}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      redirect_uris: [REDIRECT_URI],
      client_name: clientName,
      token_endpoint_auth_method: "none",
    }),
  });
  expect(registered.status, await registered.clone().text()).toBe(201);
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const query = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    state: "s1",
    code_challenge: challenge,
    code_challenge_method: "S256",
  });
  await page.goto(`/oauth/authorize?${query}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Allow ${clientName} to use Patchbay?`);
  if (server) await page.getByRole("radio", { name: new RegExp(`^${server}`) }).check();
  // The consent answers 303 to the client's redirect URI, where nothing listens (Chromium would
  // show its error page, whose late navigation gets in the next goto's way): the answer is taken
  // as it comes from the server, and the page stops there.
  let answer: { status: number; location: string } | undefined;
  await page.route("**/oauth/consent", async (route) => {
    const res = await route.fetch({ maxRedirects: 0 });
    answer = { status: res.status(), location: res.headers()["location"] ?? "" };
    await route.fulfill({ status: 200, contentType: "text/plain", body: `${answer.status} to ${answer.location}` });
  });
  await page.getByRole("button", { name: "Allow", exact: true }).click();
  await expect(page.locator("body")).toContainText(`303 to ${REDIRECT_URI}?`);
  await page.unroute("**/oauth/consent");
  const url = new URL(answer!.location);
  expect(url.searchParams.get("state")).toBe("s1");
  const code = url.searchParams.get("code");
  expect(code, answer!.location).toBeTruthy();
  return { clientId, code: code!, verifier };
}

/** The code exchanged at the token endpoint, as the client would (form-encoded, PKCE). */
async function accessToken(app: { clientId: string; code: string; verifier: string }) {
  const res = await fetch(`${baseURL()}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: app.code,
      redirect_uri: REDIRECT_URI,
      client_id: app.clientId,
      code_verifier: app.verifier,
    }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

const toolsList = (token: string) => rawMcp({ authorization: `Bearer ${token}` });

test("an allowed app shows under its MCP server and in Your connected apps; revoking it ends its access", async ({
  page,
}) => {
  const team = await seedTeamWithPasswords({ name: "Connected Co", members: 2 });
  const member = team.users[1];
  await signIn(page, member.email);

  // No app yet: the member's own card says so.
  await page.goto(`/${team.id}/settings/sessions`);
  const mine = page.getByRole("region", { name: "Your connected apps" });
  await expect(mine.getByTestId("no-connected-apps")).toContainText("You have not allowed any app in this team.");

  const app = await allowApp(page, "Test AI");
  const token = await accessToken(app);

  // Your connected apps: the app, on the server the consent created (named after it), never used yet.
  await page.goto(`/${team.id}/settings/sessions`);
  const myRow = mine.getByRole("list", { name: "Apps you allowed" }).getByRole("listitem");
  await expect(myRow).toHaveCount(1);
  await expect(myRow).toContainText("Test AI");
  await expect(myRow).toContainText("On Test AI");
  await expect(myRow).toContainText("never used");
  await expect(myRow.getByRole("button", { name: "Revoke Test AI on Test AI" })).toBeVisible();
  // A self-registered client is not "verified" (only a metadata document's is).
  await expect(myRow).not.toContainText("Verified");
  await screenshot(page, "your-connected-apps");

  // The token works on /mcp.
  const before = await toolsList(token);
  expect(before.status, await before.clone().text()).toBe(200);

  // Settings → MCP servers: the server's card lists the app with who allowed it and when it was last used.
  await page.goto(`/${team.id}/settings/mcp-servers`);
  const card = page.getByTestId("mcp-server").filter({ has: page.getByRole("heading", { name: "Test AI" }) });
  await expect(card).toContainText("Private");
  const apps = card.getByRole("list", { name: "Apps connected to Test AI" });
  const row = apps.getByRole("listitem").filter({ hasText: "Test AI" });
  await expect(row).toContainText(`Allowed by ${member.email}`);
  // last_used_at is written just after the call answers: a reload shows it.
  await expect(async () => {
    await page.reload();
    await expect(row).toContainText("last used", { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(row.locator("time")).toHaveCount(2);
  // The server's card says when it was last used, and by what (the app signed in, not a token).
  await expect(card.getByTestId("mcp-last-activity")).toContainText(`by Test AI (allowed by ${member.email})`);
  await screenshot(page, "mcp-connected-app");
  // At 390 px the row stacks, and nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await row.getByRole("button", { name: "Revoke Test AI" }).scrollIntoViewIfNeeded();
  await expect(row.getByRole("button", { name: "Revoke Test AI" })).toBeInViewport({ ratio: 1 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await screenshot(page, "mcp-connected-app-390");
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "mcp-connected-app-dark");
  await page.emulateMedia({ colorScheme: "light" });

  // By keyboard: the button opens the confirmation with the focus on Cancel; Escape keeps the app.
  const revokeButton = row.getByRole("button", { name: "Revoke Test AI" });
  await revokeButton.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Revoke Test AI?" });
  await expect(dialog).toContainText(`Test AI can no longer act as ${member.email} on Test AI`);
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(row).toBeVisible();
  expect((await toolsList(token)).status).toBe(200);

  // Revoke for real: the list refreshes to its empty state, and the token is refused.
  await revokeButton.click();
  await dialog.getByRole("button", { name: "Revoke access" }).click();
  await expect(dialog).toBeHidden();
  await expect(apps).toBeHidden();
  // An app did sign in and was used: not "yet", but "now"; its last use stays on the card.
  await expect(card).toContainText("No app is signed in to this server now:");
  await expect(card).toContainText("paste the MCP URL above into an AI client");
  await expect(card.getByTestId("mcp-last-activity")).toContainText("by Test AI");
  await screenshot(page, "mcp-connected-app-revoked");
  const after = await toolsList(token);
  expect(after.status).toBe(401);
  const headers = { "x-patchbay-team": team.id };
  const server = (await (await page.request.get("/api/dashboard/mcp-servers", { headers })).json()).data.find(
    (s: { name: string }) => s.name === "Test AI",
  );
  expect(
    (await (await page.request.get(`/api/dashboard/mcp-servers/${server.id}/apps`, { headers })).json()).data,
  ).toEqual([]);

  // And it is gone from the member's own card (the client-side cache was refreshed too).
  await page.getByRole("navigation", { name: "Settings pages" }).getByRole("link", { name: "Your sessions" }).click();
  await expect(mine.getByTestId("no-connected-apps")).toBeVisible();
});

test("an owner's app on a shared server: members see it without Revoke; the owner revokes it from their card", async ({
  page,
  browser,
}) => {
  const team = await seedTeamWithPasswords({ name: "Shared Apps Co", members: 2 });
  const [owner, member] = team.users;
  await signIn(page, owner.email);
  const headers = { "x-patchbay-team": team.id };
  const made = await page.request.post("/api/dashboard/mcp-servers", {
    headers,
    data: { name: "Team bot", is_private: false, connection_ids: [] },
  });
  expect(made.status(), await made.text()).toBe(200);
  await allowApp(page, "Shared AI", "Team bot");

  // The member sees the shared server's app and who allowed it, but may not revoke it.
  const memberContext = await browser.newContext({ baseURL: baseURL() });
  const memberPage = await memberContext.newPage();
  await signIn(memberPage, member.email);
  await memberPage.goto(`/${team.id}/settings/mcp-servers`);
  const card = memberPage
    .getByTestId("mcp-server")
    .filter({ has: memberPage.getByRole("heading", { name: "Team bot" }) });
  const row = card.getByRole("list", { name: "Apps connected to Team bot" }).getByRole("listitem");
  await expect(row).toContainText("Shared AI");
  await expect(row).toContainText(`Allowed by ${owner.email}`);
  await expect(row).toContainText("never used");
  await expect(row.getByRole("button")).toHaveCount(0);
  // Nor is it in the member's own card: they did not allow it.
  await memberPage.goto(`/${team.id}/settings/sessions`);
  await expect(memberPage.getByTestId("no-connected-apps")).toBeVisible();

  // The owner revokes it from their own card.
  await page.goto(`/${team.id}/settings/sessions`);
  const mine = page.getByRole("region", { name: "Your connected apps" });
  const myRow = mine.getByRole("listitem").filter({ hasText: "Shared AI" });
  await expect(myRow).toContainText("On Team bot");
  await myRow.getByRole("button", { name: "Revoke Shared AI on Team bot" }).click();
  const dialog = page.getByRole("dialog", { name: "Revoke Shared AI?" });
  await expect(dialog).toContainText(`as ${owner.email} on Team bot`);
  await dialog.getByRole("button", { name: "Revoke access" }).click();
  await expect(dialog).toBeHidden();
  await expect(mine.getByTestId("no-connected-apps")).toBeVisible();

  await memberPage.goto(`/${team.id}/settings/mcp-servers`);
  await expect(card).toContainText("No app has signed in to this server yet:");
  // The member cannot connect apps to a server they do not own: the empty state says who can.
  await expect(card).toContainText("its owner or a team owner can add one");
  await memberContext.close();
});
