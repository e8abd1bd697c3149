import { test, expect, seed, apiAs, expectError } from "../fixtures";
import { screenshot, seedTeamWithPasswords, signIn } from "../support/browser";
import type { SeededUser } from "../fixtures";
import { listedIds, mcpClient } from "../support/mcp";

type Server = {
  id: string;
  name: string;
  is_private: boolean;
  connections: { id: string; display_name: string | null; is_private: boolean; visible_to_you: boolean }[];
  mcp_url: string;
  can_manage: boolean;
  active_tokens: number;
};

async function connection(user: SeededUser, name: string, isPrivate = false): Promise<string> {
  const api = await apiAs(user);
  const res = await api.post("/v1/connections", {
    data: {
      connection_type: "sandbox_key",
      name,
      credentials: { api_key: `good-key-${name.length}` },
      is_private: isPrivate,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).id;
}

test("an owner creates an MCP server with two of three connections, issues a token shown once, edits permissions, revokes the token and deletes the server", async ({
  page,
  context,
}) => {
  const team = await seedTeamWithPasswords({ name: "MCP Co" });
  const [owner] = team.users;
  const billing = await connection(owner, "Billing API");
  const crm = await connection(owner, "CRM desk");
  const mine = await connection(owner, "Owner's sandbox", true);
  const doomed = await connection(owner, "Doomed");
  const headers = { "x-patchbay-team": team.id };
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, owner.email);
  await page.goto(`/${team.id}/settings/mcp-servers`);
  await expect(page.getByTestId("no-mcp-servers")).toContainText("New MCP server");

  // Bad input reaches the API, and its message is shown in the dialog.
  await page.getByRole("button", { name: "New MCP server" }).click();
  const dialog = page.getByRole("dialog", { name: "New MCP server" });
  await dialog.getByLabel("Name").fill("   ");
  await dialog.getByRole("button", { name: "Create server" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("name: is empty");
  await dialog.getByLabel("Name").fill("Support assistant");
  const picker = dialog.getByRole("list", { name: "Connections to allow" });
  await expect(picker.getByRole("checkbox")).toHaveCount(4);
  await expect(picker.getByRole("listitem").filter({ hasText: "Owner's sandbox" })).toContainText("Private");
  await dialog.getByRole("checkbox", { name: /Billing API/ }).check();
  await dialog.getByRole("checkbox", { name: /Owner's sandbox/ }).check();
  await dialog.getByRole("checkbox", { name: /Doomed/ }).check();
  await expect(dialog.getByText("(3 of 4 selected)")).toBeVisible();
  // The connection goes away while the dialog is open: the API names the unknown id.
  await (await apiAs(owner)).delete(`/v1/connections/${doomed}`);
  await dialog.getByRole("button", { name: "Create server" }).click();
  await expect(dialog.getByRole("alert")).toContainText(
    `connection_ids: no connection ${doomed} that you can use in this team`,
  );
  await dialog.getByRole("checkbox", { name: /Doomed/ }).uncheck();
  await screenshot(page, "mcp-new-server-dialog");
  await dialog.getByRole("button", { name: "Create server" }).click();
  await expect(dialog).toBeHidden();

  const card = page.getByTestId("mcp-server").filter({ hasText: "Support assistant" });
  await expect(card).toContainText("2 connections allowed");
  await expect(card).toContainText("Shared");
  await expect(card).toContainText("Owner you");
  const allowed = card.getByRole("list", { name: "Connections Support assistant may use" });
  await expect(allowed.getByRole("listitem")).toHaveText(["Billing API", "Owner's sandbox· Private"]);
  let [server] = (await (await page.request.get("/api/dashboard/mcp-servers", { headers })).json()).data as Server[];
  expect(server).toMatchObject({ name: "Support assistant", is_private: false, can_manage: true, active_tokens: 0 });
  expect(server.mcp_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  expect(server.connections.map((c) => c.id).sort()).toEqual([billing, mine].sort());

  // A token: shown once, copyable, with a ready-to-paste client configuration.
  await card.getByRole("button", { name: /^Tokens/ }).click();
  await card.getByLabel("Token name (optional)").fill("Laptop");
  await card.getByRole("button", { name: "Create token" }).click();
  const shown = card.getByTestId("new-mcp-token");
  await expect(shown).toContainText("shown only this once");
  const token = await shown.getByLabel("MCP token").inputValue();
  expect(token).toMatch(/^pbm_[0-9A-Za-z]{40}$/);
  await shown.getByRole("button", { name: "Copy", exact: true }).click();
  await expect(shown.getByText("Copied to the clipboard.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await shown.getByRole("button", { name: "Copy configuration" }).click();
  const claude = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
  expect(claude.mcpServers["patchbay-support-assistant"]).toEqual({
    command: "npx",
    args: ["-y", "mcp-remote", server.mcp_url, "--header", "Authorization:${PATCHBAY_MCP_AUTH}"],
    env: { PATCHBAY_MCP_AUTH: `Bearer ${token}` },
  });
  await shown.getByRole("button", { name: "Cursor, VS Code, Inspector" }).click();
  const http = JSON.parse((await shown.getByTestId("mcp-client-config").textContent())!);
  expect(http.mcpServers["patchbay-support-assistant"]).toEqual({
    type: "http",
    url: server.mcp_url,
    headers: { Authorization: `Bearer ${token}` },
  });
  const tokenRow = card
    .getByRole("list", { name: "Tokens of Support assistant" })
    .getByRole("listitem")
    .filter({ hasText: "Laptop" });
  await expect(tokenRow).toContainText(token.slice(0, 12));
  await expect(tokenRow).toContainText(`By ${owner.email}`);
  await expect(tokenRow).toContainText("never used");
  await expect(tokenRow).toContainText("Active");
  await expect(card).toContainText("(1 active)");
  await screenshot(page, "mcp-token-created");
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "mcp-token-created-390");
  await page.setViewportSize({ width: 1280, height: 800 });

  await shown.getByRole("button", { name: "Done" }).click();
  // A token-based client never signs in: the card says so, and once the token is used, when and
  // through which token; its calls are counted and one click from their logs.
  const activity = card.getByTestId("mcp-last-activity");
  await expect(activity).toContainText("Not used yet · no calls in the logs since");
  await expect(card).toContainText(
    "No app has signed in with OAuth: clients use this server through its 1 active token (see Tokens).",
  );
  const client = await mcpClient(token);
  await listedIds(client);
  await client.close();
  // last_used_at is written just after the call answers: a reload shows it.
  await expect(async () => {
    await page.reload();
    await expect(activity).toContainText(`through token “Laptop” ${token.slice(0, 12)}…`, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await activity.getByRole("link", { name: "1 call in the logs" }).click();
  await expect(page).toHaveURL(`/${team.id}/logs?source_type=mcp&source_id=${server.id}`);
  await expect(page.getByRole("grid", { name: "Operation logs" })).toContainText("list_connections");
  await page.goto(`/${team.id}/settings/mcp-servers`);
  await page.reload();
  await card.getByRole("button", { name: /^Tokens/ }).click();
  await expect(tokenRow).toBeVisible();
  expect(await page.content()).not.toContain(token);

  // Permissions: search, add CRM, drop Billing API; the saved set is replaced.
  await card.getByRole("button", { name: "Edit permissions of Support assistant" }).click();
  const perms = page.getByRole("dialog", { name: "Permissions of Support assistant" });
  // The search also matches ids (random base62); a term with a space can only match a name.
  await perms.getByLabel("Search connections").fill("crm desk");
  await expect(perms.getByRole("checkbox")).toHaveCount(1);
  await perms.getByRole("checkbox", { name: /CRM/ }).check();
  await perms.getByLabel("Search connections").fill("");
  await perms.getByRole("checkbox", { name: /Billing API/ }).uncheck();
  await expect(perms.getByText("(2 of 3 selected)")).toBeVisible();
  await screenshot(page, "mcp-edit-permissions");
  await perms.getByRole("button", { name: "Save permissions" }).click();
  await expect(perms).toBeHidden();
  await expect(allowed.getByRole("listitem")).toHaveText(["CRM desk", "Owner's sandbox· Private"]);
  [server] = (await (await page.request.get("/api/dashboard/mcp-servers", { headers })).json()).data as Server[];
  expect(server.connections.map((c) => c.id).sort()).toEqual([crm, mine].sort());

  // Revoke, with confirmation.
  await tokenRow.getByRole("button", { name: "Revoke token Laptop" }).click();
  const revoke = page.getByRole("dialog", { name: "Revoke Laptop?" });
  await expect(revoke).toContainText(token.slice(0, 12));
  await revoke.getByRole("button", { name: "Revoke token" }).click();
  await expect(revoke).toBeHidden();
  await expect(tokenRow).toContainText("Revoked");
  await expect(card).toContainText("(0 active)");
  const tokens = (await (await page.request.get(`/api/dashboard/mcp-servers/${server.id}/tokens`, { headers })).json())
    .data;
  expect(tokens).toHaveLength(1);
  expect(tokens[0]).toMatchObject({ name: "Laptop", prefix: token.slice(0, 12), created_by: { email: owner.email } });
  expect(tokens[0].revoked_at).toEqual(expect.any(Number));
  expect(JSON.stringify(tokens)).not.toContain(token);

  // Rename, then delete with confirmation.
  await card.getByRole("button", { name: "Rename Support assistant" }).click();
  const rename = page.getByRole("dialog", { name: "Edit Support assistant" });
  await rename.getByLabel("Name").fill("x".repeat(100) + "y");
  await expect(rename.getByLabel("Name")).toHaveValue("x".repeat(100));
  await rename.getByLabel("Name").fill("Support bot");
  await rename.getByRole("button", { name: "Save" }).click();
  await expect(rename).toBeHidden();
  const renamed = page.getByTestId("mcp-server").filter({ hasText: "Support bot" });
  await renamed.getByRole("button", { name: "Delete Support bot" }).click();
  const del = page.getByRole("dialog", { name: "Delete Support bot?" });
  await expect(del).toContainText("0 active tokens stop working");
  await del.getByRole("button", { name: "Delete server" }).click();
  await expect(del).toBeHidden();
  await expect(page.getByTestId("no-mcp-servers")).toBeVisible();
  await expectError(
    await page.request.get(`/api/dashboard/mcp-servers/${server.id}/tokens`, { headers }),
    404,
    `No MCP server ${server.id}`,
  );
});

test("the endpoints say what is wrong with bad input, and another team's servers are not found", async ({ page }) => {
  const team = await seedTeamWithPasswords({ name: "Validation Co" });
  const other = await seedTeamWithPasswords({ name: "Elsewhere Co" });
  const theirs = await seed<{ id: string }>("mcpServer", { team: other.id, name: "Theirs", owner: other.users[0].id });
  const headers = { "x-patchbay-team": team.id };
  await signIn(page, team.users[0].email);
  const post = (data: unknown) => page.request.post("/api/dashboard/mcp-servers", { headers, data: data as object });

  await expectError(await post({}), 400, "name: is required and must be a string");
  await expectError(await post({ name: "x".repeat(101) }), 400, "name: must be at most 100 characters");
  await expectError(
    await post({ name: "ok", connection_ids: "conn_1" }),
    400,
    "connection_ids: must be an array of connection ids",
  );
  await expectError(await post({ name: "ok", is_private: "yes" }), 400, "is_private: must be true or false");
  await expectError(await post({ name: "ok", owner: "someone" }), 400, "owner");
  await expectError(
    await post({ name: "ok", connection_ids: ["conn_nope"] }),
    400,
    "connection_ids: no connection conn_nope",
  );
  const created = await post({ name: "Valid", is_private: true });
  expect(created.status()).toBe(200);
  const server = await created.json();
  expect(server).toMatchObject({
    name: "Valid",
    is_private: true,
    connection_permissions: 0,
    connections: [],
    active_tokens: 0,
    can_manage: true,
  });

  const path = `/api/dashboard/mcp-servers/${server.id}`;
  await expectError(
    await page.request.patch(path, { headers, data: {} }),
    400,
    "Send at least one of name, is_private, connection_ids",
  );
  await expectError(await page.request.patch(path, { headers, data: { name: "  " } }), 400, "name: is empty");
  await expectError(
    await page.request.post(`${path}/tokens`, { headers, data: { name: 5 } }),
    400,
    "name: must be a string",
  );
  await expectError(await page.request.delete(`${path}/tokens/mcpt_nope`, { headers }), 404, "No token mcpt_nope");
  const token = await (await page.request.post(`${path}/tokens`, { headers, data: {} })).json();
  expect(token).toEqual({
    id: expect.any(String),
    prefix: token.token.slice(0, 12),
    name: null,
    created_at: expect.any(Number),
    token: expect.stringMatching(/^pbm_[0-9A-Za-z]{40}$/),
  });

  // Another team's server: 404 for every operation, and it is unchanged.
  const foreign = `/api/dashboard/mcp-servers/${theirs.id}`;
  await expectError(
    await page.request.patch(foreign, { headers, data: { name: "Mine now" } }),
    404,
    `No MCP server ${theirs.id}`,
  );
  await expectError(await page.request.delete(foreign, { headers }), 404);
  await expectError(await page.request.get(`${foreign}/tokens`, { headers }), 404);
  await expectError(await page.request.post(`${foreign}/tokens`, { headers, data: {} }), 404);
  await expectError(await page.request.delete(`${foreign}/tokens/${token.id}`, { headers }), 404);
  // A token id of one server is not found through another server.
  const second = await (await post({ name: "Second" })).json();
  await expectError(
    await page.request.delete(`/api/dashboard/mcp-servers/${second.id}/tokens/${token.id}`, { headers }),
    404,
    `No token ${token.id}`,
  );
});

test("a member sees shared servers but cannot change another member's; private servers stay private; a team owner may manage shared ones", async ({
  page,
  browser,
}) => {
  const team = await seedTeamWithPasswords({ name: "Shared Co", members: 3 });
  const [owner, alice, bob] = team.users;
  const aliceSecret = await connection(alice, "Alice's CRM", true);
  const shared = await connection(owner, "Team billing");
  const headers = { "x-patchbay-team": team.id };

  // Alice creates a shared server using her private connection, and a private one.
  const aliceCtx = await browser.newContext();
  const alicePage = await aliceCtx.newPage();
  await signIn(alicePage, alice.email);
  const aliceServer = (await (
    await alicePage.request.post("/api/dashboard/mcp-servers", {
      headers,
      data: { name: "Alice shared", connection_ids: [aliceSecret, shared] },
    })
  ).json()) as Server;
  const alicePrivate = (await (
    await alicePage.request.post("/api/dashboard/mcp-servers", {
      headers,
      data: { name: "Alice private", is_private: true },
    })
  ).json()) as Server;
  await alicePage.request.post(`/api/dashboard/mcp-servers/${aliceServer.id}/tokens`, {
    headers,
    data: { name: "Alice laptop" },
  });

  await signIn(page, bob.email);
  await page.goto(`/${team.id}/settings/mcp-servers`);
  const list = page.getByRole("list", { name: "MCP servers" });
  const card = list.getByTestId("mcp-server").filter({ hasText: "Alice shared" });
  await expect(card).toContainText(`Owner ${alice.email}`);
  await expect(list).not.toContainText("Alice private");
  // Alice's private connection is counted, but its name is not shown to Bob.
  await expect(card).toContainText("2 connections allowed");
  await expect(card.getByRole("list", { name: "Connections Alice shared may use" })).toContainText(
    "Private connection (Sandbox (API key))",
  );
  await expect(card).not.toContainText("Alice's CRM");
  await expect(card).toContainText("Only its owner or a team owner can change it.");
  await expect(card.getByRole("button", { name: /Edit permissions|Rename|Delete/ })).toHaveCount(0);
  await card.getByRole("button", { name: /^Tokens/ }).click();
  await expect(card.getByRole("list", { name: "Tokens of Alice shared" })).toContainText("Alice laptop");
  await expect(card.getByRole("button", { name: "Create token" })).toHaveCount(0);
  await expect(card.getByRole("button", { name: /Revoke/ })).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "mcp-member-390");

  const base = `/api/dashboard/mcp-servers/${aliceServer.id}`;
  for (const res of [
    await page.request.patch(base, { headers, data: { name: "Bob's now" } }),
    await page.request.patch(base, { headers, data: { connection_ids: [] } }),
    await page.request.delete(base, { headers }),
    await page.request.post(`${base}/tokens`, { headers, data: {} }),
  ]) {
    await expectError(res, 403, "Only the server's owner or a team owner");
  }
  await expectError(
    await page.request.patch(`/api/dashboard/mcp-servers/${alicePrivate.id}`, { headers, data: { name: "x" } }),
    404,
    `No MCP server ${alicePrivate.id}`,
  );
  await expectError(await page.request.get(`/api/dashboard/mcp-servers/${alicePrivate.id}/tokens`, { headers }), 404);
  const bobView = (await (await page.request.get("/api/dashboard/mcp-servers", { headers })).json()).data as Server[];
  expect(bobView.map((s) => s.name)).toEqual(["Alice shared"]);
  expect(bobView[0].connections.find((c) => c.id === aliceSecret)).toEqual({
    id: aliceSecret,
    type: "sandbox_key",
    display_name: null,
    is_private: true,
    visible_to_you: false,
  });

  // The team owner may rename Alice's shared server and keep its permissions, but not make it private.
  const ownerCtx = await browser.newContext();
  const ownerPage = await ownerCtx.newPage();
  await signIn(ownerPage, owner.email);
  await ownerPage.goto(`/${team.id}/settings/mcp-servers`);
  const ownersCard = ownerPage.getByTestId("mcp-server").filter({ hasText: "Alice shared" });
  await ownersCard.getByRole("button", { name: "Edit permissions of Alice shared" }).click();
  const perms = ownerPage.getByRole("dialog", { name: "Permissions of Alice shared" });
  // Alice's private connection stays ticked (nameless), so saving does not drop it.
  await expect(perms.getByRole("checkbox", { name: /A private connection of the server's owner/ })).toBeChecked();
  await expect(perms.getByRole("checkbox", { name: /Team billing/ })).toBeChecked();
  await perms.getByRole("button", { name: "Save permissions" }).click();
  await expect(perms).toBeHidden();
  const afterSave = (await (await alicePage.request.get("/api/dashboard/mcp-servers", { headers })).json())
    .data as Server[];
  expect(
    afterSave
      .find((s) => s.id === aliceServer.id)!
      .connections.map((c) => c.id)
      .sort(),
  ).toEqual([aliceSecret, shared].sort());
  await expectError(
    await ownerPage.request.patch(base, { headers, data: { is_private: true } }),
    403,
    "Only the server's owner can make it private",
  );
  await ownersCard.getByRole("button", { name: "Rename Alice shared" }).click();
  const rename = ownerPage.getByRole("dialog", { name: "Edit Alice shared" });
  await expect(rename).toContainText(`Only its owner (${alice.email}) can make this server private.`);
  await rename.getByLabel("Name").fill("Alice shared (renamed)");
  await rename.getByRole("button", { name: "Save" }).click();
  await expect(rename).toBeHidden();
  await expect(ownerPage.getByTestId("mcp-server").filter({ hasText: "Alice shared (renamed)" })).toBeVisible();
  await ownerPage.emulateMedia({ colorScheme: "dark" });
  await screenshot(ownerPage, "mcp-owner-dark");
  await Promise.all([aliceCtx.close(), ownerCtx.close()]);
});
