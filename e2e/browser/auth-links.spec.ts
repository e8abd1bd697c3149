import { test, expect, seed, apiAs, cli } from "../fixtures";
import { connect, createLink } from "../support/oauth-flow";
import { mcpClient } from "../support/mcp";
import { screenshot, seedTeamWithPasswords, signIn } from "../support/browser";

test("generate a sandbox_oauth link, complete the OAuth in a second page while the first turns connected", async ({
  page,
  context,
}) => {
  // Two browser pages, the sandbox OAuth round trip and three seed processes: more than the default minute on a busy machine.
  test.slow();
  const team = await seedTeamWithPasswords({ name: "Links Co" });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, team.users[0].email);
  await page.goto(`/${team.id}/auth-links`);
  await expect(page.getByText("No links yet.")).toBeVisible();

  await page.getByLabel("Connection type").selectOption("sandbox_oauth");
  await page.getByLabel("External ID (optional)").fill("client-7");
  await page.getByLabel("Redirect URL (optional)").fill("http://example.com/done");
  await expect(page.getByText("The redirect URL must start with https://.")).toBeVisible();
  await page.getByLabel("Redirect URL (optional)").fill("https://example.com/done?status=mine");
  // The exact success redirect, with the prefix rule for a name the URL already uses.
  await expect(page.getByTestId("redirect-preview")).toHaveText(
    "https://example.com/done?status=mine&service_status=success&connection_type=sandbox_oauth&connection_id=conn_XXXXXXXXXXXXXXXXXXXX&external_id=client-7",
  );
  await page.getByRole("button", { name: "Generate link" }).click();

  const result = page.getByTestId("auth-link-result");
  await expect(result).toBeVisible();
  await expect(result.getByTestId("auth-link-qr").locator("svg")).toBeVisible();
  await expect(result.getByTestId("auth-link-countdown")).toHaveText(/Expires in 2[34] h \d\d min \d\d s/);
  await expect(result.getByTestId("auth-link-status")).toHaveText("Pending");
  const url = await result.getByLabel("Link to send").inputValue();
  expect(url).toMatch(/\/connect\/[0-9A-Za-z]{32}$/);
  await result.getByRole("button", { name: "Copy" }).click();
  await expect(result.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await screenshot(page, "auth-links-pending");

  // The account owner first says no (over HTTP, as a browser would): the card says so, and that
  // the link still works, where the status endpoint can only say pending.
  await connect({ id: "", url, expires_at: 0 }, "sandbox_oauth", { decision: "deny" });
  const lastAttempt = result.getByTestId("auth-link-last-attempt");
  await expect(lastAttempt).toContainText("Denied by the account owner at");
  await expect(lastAttempt).toContainText("— the link still works until");
  await expect(result.getByTestId("auth-link-status")).toHaveText("Pending");
  await expect(page.getByTestId("recent-auth-link").first().getByTestId("auth-link-last-attempt")).toContainText(
    "Denied by the account owner at",
  );
  await screenshot(page, "auth-links-denied");

  // The account owner, in another page.
  // The redirects that follow Approve (the sandbox's to the callback, the callback's to the
  // client's app) are followed here with the page's own cookies and read off the real responses;
  // Chromium does not hand a redirect's target to request interception, and the browser has no
  // route to example.com.
  const owner = await context.newPage();
  let sent: (to: string) => void = () => {};
  const sentTo = new Promise<string>((resolve) => (sent = resolve));
  await owner.route("**/sandbox/oauth/authorize?**", async (route) => {
    if (route.request().method() !== "POST") return route.continue();
    const approved = await route.fetch({ maxRedirects: 0 });
    const callback = await owner.request.get(approved.headers().location, { maxRedirects: 0 });
    sent(`${callback.status()} ${callback.headers().location}`);
    await route.fulfill({ status: 200, contentType: "text/plain", body: "client app" });
  });
  await owner.goto(url);
  await owner.getByRole("button", { name: "Continue to Sandbox" }).click();
  // Gone to the provider: the card says the sign-in started and is not back yet.
  await expect(lastAttempt).toContainText("Sign-in started");
  await owner.getByLabel("Account").fill("links-user");
  await owner.getByRole("button", { name: "Approve" }).click();
  await expect(owner.getByText("client app")).toBeVisible();
  const redirect = await sentTo;
  expect(redirect).toMatch(
    /^302 https:\/\/example\.com\/done\?status=mine&service_status=success&connection_type=sandbox_oauth&connection_id=conn_\w{20}&external_id=client-7$/,
  );
  const connectionId = new URL(redirect.slice(4)).searchParams.get("connection_id")!;
  await owner.close();

  await expect(result.getByTestId("auth-link-status")).toHaveText("Connected", { timeout: 10_000 });
  const connection = result.getByTestId("auth-link-connection");
  await expect(connection).toContainText(connectionId);
  await expect(connection).toContainText("client-7");
  await expect(result.getByTestId("auth-link-qr")).toHaveCount(0);
  await expect(lastAttempt).toHaveCount(0);
  const recent = page.getByTestId("recent-auth-link");
  await expect(recent).toHaveCount(1);
  await expect(recent.first()).toHaveAttribute("data-status", "connected");
  await expect(recent.first()).toContainText(connectionId);
  await screenshot(page, "auth-links-connected");

  // Later the provider refuses a token refresh: the connections table flags it and offers a new link.
  await seed("oauthTokens", { id: connectionId, expire: true, refreshToken: "bad-refresh" });
  expect((await seed("freshCredentials", { team: team.id, id: connectionId })).error?.status).toBeGreaterThanOrEqual(
    400,
  );
  await page.getByRole("link", { name: "Connections", exact: true }).click();
  const row = page.getByTestId("connection-row").filter({ hasText: connectionId });
  await expect(row).toContainText("Needs re-authorization");
  await row.getByRole("link", { name: "Re-authorize" }).click();
  await expect(page.getByLabel("Connection type")).toHaveValue("sandbox_oauth");
  await expect(page.getByLabel("External ID (optional)")).toHaveValue("client-7");
});

test("an expired link in the recent list is regenerated with one click into a new pending link", async ({ page }) => {
  const team = await seedTeamWithPasswords();
  const api = await apiAs(team.users[0]);
  const old = await createLink(api, { connection_type: "sandbox_oauth", external_id: "client-9", is_private: true });
  await seed("expireAuthLink", { id: old.id });
  await signIn(page, team.users[0].email);
  await page.goto(`/${team.id}/auth-links`);

  const recent = page.getByTestId("recent-auth-link");
  await expect(recent).toHaveCount(1);
  await expect(recent.first()).toHaveAttribute("data-status", "expired");
  await recent.first().getByRole("button", { name: "Regenerate" }).click();

  const result = page.getByTestId("auth-link-result");
  await expect(result.getByTestId("auth-link-status")).toHaveText("Pending");
  await expect(recent).toHaveCount(2);
  await expect(recent.first()).toHaveAttribute("data-status", "pending");
  await expect(recent.first()).toContainText("client-9");
  await expect(recent.nth(1)).toHaveAttribute("data-status", "expired");

  // Same settings as the expired one.
  const list = await (
    await page.request.get("/api/dashboard/auth-links", { headers: { "x-patchbay-team": team.id } })
  ).json();
  expect(list[0]).toMatchObject({
    status: "pending",
    connection_type: "sandbox_oauth",
    external_id: "client-9",
    is_private: true,
  });
  expect(list[0].id).not.toBe(old.id);
  expect(list[0].url).toBe(await result.getByLabel("Link to send").inputValue());
  await screenshot(page, "auth-links-regenerated");
});

test("access revoked at the provider: after the next use the connection shows Needs re-authorization, and re-authorizing through the prefilled link clears it", async ({
  page,
  context,
}) => {
  test.slow();
  const team = await seedTeamWithPasswords();
  const api = await apiAs(team.users[0]);
  const link = await createLink(api, { connection_type: "sandbox_oauth", external_id: "client-revoked" });
  await connect(link, "sandbox_oauth", { account: "revoked-user" });
  const connectionId = (await (await api.get(`/v1/connections/auth-links/${link.id}/status`)).json())
    .connection_id as string;
  const made = await cli(
    "mcp",
    "create",
    "--team",
    team.id,
    "--user",
    team.users[0].id,
    "--name",
    "Agent",
    "--connections",
    connectionId,
  );
  const agent = await mcpClient(made.json.token);
  const report = (end_date: string) =>
    agent.callTool({ name: "sandbox_report", arguments: { connection_id: connectionId, metric: "users", end_date } });

  // The user revokes access at the sandbox; Patchbay learns it when an agent next uses the connection.
  expect((await cli("sandbox", "revoke", "--connection", connectionId)).json).toEqual({ revoked: true });
  expect((await report("2026-03-01")).isError).toBe(true);

  await signIn(page, team.users[0].email);
  await page.goto(`/${team.id}/connections`);
  const row = page.getByTestId("connection-row").filter({ hasText: connectionId });
  await expect(row).toContainText("Needs re-authorization");
  await screenshot(page, "connections-needs-reauth");
  await row.getByRole("link", { name: "Re-authorize" }).click();
  await expect(page.getByLabel("Connection type")).toHaveValue("sandbox_oauth");
  await expect(page.getByLabel("External ID (optional)")).toHaveValue("client-revoked");
  await page.getByRole("button", { name: "Generate link" }).click();
  const url = await page.getByTestId("auth-link-result").getByLabel("Link to send").inputValue();

  const owner = await context.newPage();
  await owner.goto(url);
  await owner.getByRole("button", { name: "Continue to Sandbox" }).click();
  await owner.getByLabel("Account").fill("revoked-user");
  await owner.getByRole("button", { name: "Approve" }).click();
  await expect(owner.getByText(/connected/i).first()).toBeVisible();
  await owner.close();

  await expect(page.getByTestId("auth-link-result").getByTestId("auth-link-connection")).toContainText(connectionId, {
    timeout: 10_000,
  });
  await page.goto(`/${team.id}/connections`);
  await expect(page.getByTestId("connection-row").filter({ hasText: connectionId })).not.toContainText(
    "Needs re-authorization",
  );
  expect((await report("2026-03-02")).isError).toBeFalsy();
});
