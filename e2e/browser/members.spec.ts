import { test, expect, seed, anonymous, expectError } from "../fixtures";
import { PASSWORD, screenshot, seedTeamWithPasswords, signIn } from "../support/browser";

const alias = (name: string) =>
  `${name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

test("an owner invites a new person by link; they create an account, join and land in the team", async ({
  page,
  browser,
}) => {
  const team = await seedTeamWithPasswords({ name: "Invite Co" });
  const [owner] = team.users;
  const email = alias("newcomer");
  await signIn(page, owner.email);
  await page.goto(`/${team.id}/settings`);

  await page.getByLabel("Invite by email").fill(email.toUpperCase());
  await page.getByRole("button", { name: "Create invite" }).click();
  const shown = page.getByTestId("new-invite");
  const url = await shown.getByLabel(`Invite link for ${email}`).inputValue();
  expect(url).toMatch(/\/invite\/[0-9A-Za-z]{32}$/);
  await expect(page.getByRole("list", { name: "Open invites" })).toContainText(email);
  await expect(page.getByRole("list", { name: "Open invites" })).toContainText("pending until");

  // The invitee, in a browser of their own, on a phone.
  const theirs = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const invitee = await theirs.newPage();
  await invitee.goto(url);
  await expect(invitee.getByRole("heading", { name: "Join Invite Co" })).toBeVisible();
  await expect(invitee.getByText(`${owner.email} invited ${email}`)).toBeVisible();
  await screenshot(invitee, "invite-new-account");
  await invitee.getByLabel("Your name (optional)").fill("New Comer");
  await invitee.getByLabel("Choose a password").fill("short");
  await invitee.getByLabel("Repeat the password").fill("short");
  await invitee.getByRole("button", { name: "Create account and join Invite Co" }).click();
  await expect(invitee.getByText("password: must be at least 8 characters")).toBeVisible();
  await invitee.getByLabel("Choose a password").fill(PASSWORD);
  await invitee.getByLabel("Repeat the password").fill(`${PASSWORD}!`);
  await invitee.getByRole("button", { name: "Create account and join Invite Co" }).click();
  await expect(invitee.getByText("The two passwords are not the same.")).toBeVisible();
  await invitee.getByLabel("Repeat the password").fill(PASSWORD);
  await invitee.getByRole("button", { name: "Create account and join Invite Co" }).click();
  await expect(invitee).toHaveURL(new RegExp(`/${team.id}$`));
  await invitee.goto(`/${team.id}/settings`);
  await expect(invitee.getByRole("list", { name: "Members" })).toContainText(`${email}(you)`);
  await screenshot(invitee, "members-invitee-joined");

  // Used once: the link now says so, and a replay cannot create anything.
  const replay = await anonymous();
  await expectError(
    await replay.post(`${new URL(url).pathname}/accept`, { data: { password: PASSWORD } }),
    410,
    "already been accepted",
  );
  const stranger = await browser.newContext();
  const strangerPage = await stranger.newPage();
  await strangerPage.goto(url);
  await expect(strangerPage.getByRole("heading", { name: "This invite has already been accepted" })).toBeVisible();

  await page.reload();
  const members = page.getByRole("list", { name: "Members" });
  await expect(members).toContainText(email);
  await expect(page.getByTestId("no-open-invites")).toBeVisible();
  await expect(page.getByRole("list", { name: "Open invites" })).toHaveCount(0);
  await expect(page.getByLabel(`Role of ${email}`)).toHaveValue("member");
  await screenshot(page, "members-owner-after-invite");
  await Promise.all([theirs.close(), stranger.close()]);
});

test("an invite for an existing account is accepted by signing in as it, and only as it", async ({ page, browser }) => {
  const team = await seedTeamWithPasswords({ name: "Second Team Co" });
  const elsewhere = await seedTeamWithPasswords({ name: "First Team Co", members: 2 });
  const [owner] = team.users;
  const [existing, wrongPerson] = elsewhere.users;
  await signIn(page, owner.email);
  const created = await page.request.post("/api/dashboard/invites", {
    headers: { "x-patchbay-team": team.id },
    data: { email: existing.email, role: "owner" },
  });
  expect(created.status()).toBe(201);
  const invite = await created.json();
  expect(invite).toMatchObject({
    email: existing.email,
    role: "owner",
    status: "pending",
    invited_by: { email: owner.email },
  });

  // Signed in as someone else: told so, never joined.
  const ctx = await browser.newContext();
  const other = await ctx.newPage();
  await signIn(other, wrongPerson.email);
  await other.goto(invite.url);
  await expect(other.getByText(`You are signed in as ${wrongPerson.email}`)).toBeVisible();
  await expectError(
    await other.request.post(`${new URL(invite.url).pathname}/accept`, { data: {} }),
    403,
    `for ${existing.email}`,
  );
  await other.getByRole("button", { name: `Sign out of ${wrongPerson.email}` }).click();

  // Signed out now: the account exists, so the page asks to sign in as it and comes back.
  await expect(other.getByRole("link", { name: "Sign in to accept" })).toBeVisible();
  await other.getByRole("link", { name: "Sign in to accept" }).click();
  await other.getByLabel("Email").fill(existing.email);
  await other.getByLabel("Password").fill(PASSWORD);
  await other.getByRole("button", { name: "Sign in" }).click();
  await expect(other.getByRole("heading", { name: "Join Second Team Co" })).toBeVisible();
  await other.getByRole("button", { name: "Join Second Team Co" }).click();
  await expect(other).toHaveURL(new RegExp(`/${team.id}$`));
  // Now in two teams: the header switches between them, keeping the section.
  await other.goto(`/${team.id}/settings/members`);
  await expect(other.getByLabel(`Role of ${existing.email}`)).toHaveValue("owner");
  await other.getByLabel("Switch team").selectOption(elsewhere.id);
  await expect(other).toHaveURL(new RegExp(`/${elsewhere.id}/settings/members$`));
  await ctx.close();
});

test("owners withdraw invites, invites expire, and the rules are enforced on the endpoints", async ({
  page,
  browser,
}) => {
  const team = await seedTeamWithPasswords({ name: "Rules Co", members: 2 });
  const [owner, member] = team.users;
  await signIn(page, owner.email);
  const headers = { "x-patchbay-team": team.id };
  await expectError(
    await page.request.post("/api/dashboard/invites", { headers, data: { email: "not an email" } }),
    400,
    "is not an email address",
  );
  await expectError(
    await page.request.post("/api/dashboard/invites", { headers, data: { email: "a@b.co", role: "admin" } }),
    400,
    "role: must be owner or member",
  );
  await expectError(
    await page.request.post("/api/dashboard/invites", { headers, data: { email: member.email } }),
    409,
    "already a member",
  );
  await expectError(
    await page.request.post("/api/dashboard/invites", {
      headers: { ...headers, origin: "https://evil.example" },
      data: { email: "x@y.co" },
    }),
    403,
    "Cross-site",
  );

  const email = alias("withdrawn");
  const first = await (await page.request.post("/api/dashboard/invites", { headers, data: { email } })).json();
  // Inviting the same address again replaces the open invite: the first link stops working.
  const second = await (await page.request.post("/api/dashboard/invites", { headers, data: { email } })).json();
  expect(second.url).not.toBe(first.url);
  const anon = await anonymous();
  await expectError(
    await anon.post(`${new URL(first.url).pathname}/accept`, { data: { password: PASSWORD } }),
    410,
    "withdrawn",
  );

  await page.goto(`/${team.id}/settings`);
  const open = page.getByRole("list", { name: "Open invites" });
  await expect(open.getByRole("listitem")).toHaveCount(1);
  await open.getByRole("button", { name: `Withdraw the invite for ${email}` }).click();
  await expect(page.getByTestId("no-open-invites")).toBeVisible();
  const ctx = await browser.newContext();
  const visitor = await ctx.newPage();
  await visitor.goto(second.url);
  await expect(visitor.getByRole("heading", { name: "This invite has been withdrawn" })).toBeVisible();
  await visitor.goto("/invite/not-a-token");
  await expect(visitor.getByRole("heading", { name: "This invite isn't valid" })).toBeVisible();

  const late = await (
    await page.request.post("/api/dashboard/invites", { headers, data: { email: alias("late") } })
  ).json();
  await seed("expireInvite", { id: late.id });
  await visitor.goto(late.url);
  await expect(visitor.getByRole("heading", { name: "This invite has expired" })).toBeVisible();
  await expectError(
    await anon.post(`${new URL(late.url).pathname}/accept`, { data: { password: PASSWORD } }),
    410,
    "expired",
  );
  await page.reload();
  await expect(open).toContainText("expired");
  await open.getByRole("button", { name: "Invite again" }).click();
  await expect(page.getByLabel("Invite by email")).toHaveValue(late.email);

  // A member can neither invite nor see invites, nor remove others.
  const memberCtx = await browser.newContext();
  const memberPage = await memberCtx.newPage();
  await signIn(memberPage, member.email);
  await expectError(
    await memberPage.request.post("/api/dashboard/invites", { headers, data: { email: "x@y.co" } }),
    403,
    "Only team owners",
  );
  await expectError(await memberPage.request.get("/api/dashboard/invites", { headers }), 403, "Only team owners");
  await expectError(
    await memberPage.request.delete(`/api/dashboard/members/${owner.id}`, { headers }),
    403,
    "only leave",
  );
  await Promise.all([ctx.close(), memberCtx.close()]);
});

test("an owner removes a member: access and their API keys end at once; a member can leave; the last owner stays", async ({
  page,
  browser,
}) => {
  const team = await seedTeamWithPasswords({ name: "Removal Co", members: 3 });
  const [owner, removed, leaver] = team.users;
  const api = await anonymous();
  const auth = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
  expect((await api.get("/v1/connections", auth(removed.key))).status()).toBe(200);

  const ctx = await browser.newContext();
  const removedPage = await ctx.newPage();
  await signIn(removedPage, removed.email);

  await signIn(page, owner.email);
  await page.goto(`/${team.id}/settings`);
  await page.getByRole("button", { name: `Remove ${removed.email}` }).click();
  const dialog = page.getByRole("dialog", { name: `Remove ${removed.email}?` });
  await expect(dialog).toContainText("API keys they created for this team are revoked");
  await dialog.getByRole("button", { name: "Remove member" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("list", { name: "Members" })).not.toContainText(removed.email);

  await expectError(await api.get("/v1/connections", auth(removed.key)), 401, "revoked");
  await expectError(
    await removedPage.request.get("/api/dashboard/members", { headers: { "x-patchbay-team": team.id } }),
    404,
    "not a member",
  );
  await removedPage.goto("/");
  await expect(removedPage.getByTestId("no-team")).toContainText("not a member of any team");

  // The only owner cannot remove themselves.
  await page.getByRole("button", { name: "Leave the team" }).click();
  const leave = page.getByRole("dialog", { name: "Leave this team?" });
  await leave.getByRole("button", { name: "Leave team" }).click();
  await expect(leave.getByRole("alert")).toContainText("only owner");
  await leave.getByRole("button", { name: "Cancel" }).click();

  // A member leaves on their own and lands outside the team.
  const leaverCtx = await browser.newContext();
  const leaverPage = await leaverCtx.newPage();
  await signIn(leaverPage, leaver.email);
  await leaverPage.goto(`/${team.id}/settings`);
  await leaverPage.getByRole("button", { name: "Leave the team" }).click();
  await leaverPage
    .getByRole("dialog", { name: "Leave this team?" })
    .getByRole("button", { name: "Leave team" })
    .click();
  await expect(leaverPage.getByTestId("no-team")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("list", { name: "Members" }).getByRole("listitem")).toHaveCount(1);
  await screenshot(page, "members-after-removal");
  await Promise.all([ctx.close(), leaverCtx.close()]);
});
