import type { Page } from "@playwright/test";
import { test, expect, apiAs, cli } from "../fixtures";
import { screenshot, seedTeamWithPasswords, signIn } from "../support/browser";
import { mcpClient } from "../support/mcp";

// Issue 25 in the browser: an agent's write waits in the Approvals page (reached through the
// approve_url it hands to a person), a member approves it after a confirmation or rejects it
// with a note, the agent reads the outcome, and the navigation's count follows. The Operations
// page lists the catalogue with the team's connections.

type Filed = { approval_id: string; status: string; summary: string; approve_url: string; expires_at: number };
type Result = {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
};
type Client = Awaited<ReturnType<typeof mcpClient>>;

/** A team with a sandbox_key connection and an MCP server whose writes need approval, and the agent's MCP client. */
async function writerSetup(name: string) {
  const team = await seedTeamWithPasswords({ name, members: 2 });
  const api = await apiAs(team.users[0]);
  const res = await api.post("/v1/connections", {
    data: {
      connection_type: "sandbox_key",
      name: "Notes account",
      credentials: { api_key: `sk-${name.replace(/\W/g, "")}-${Date.now()}` },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const connection = (await res.json()) as { id: string; external_id: string };
  const made = await cli(
    "mcp",
    "create",
    "--team",
    team.id,
    "--user",
    team.users[0].id,
    "--name",
    "Claude Desktop",
    "--connections",
    connection.id,
    "--writes",
    "approval",
  );
  expect(made.code, JSON.stringify(made.json)).toBe(0);
  const client = await mcpClient(made.json.token);
  return { team, connection, client };
}

async function askToSetNote(client: Client, connectionId: string, note: string): Promise<Filed> {
  const asked = (await client.callTool({
    name: "run_write_operation",
    arguments: { operation_id: "sandbox.set_note", connection_id: connectionId, input: { note } },
  })) as Result;
  expect(asked.isError, asked.content.map((c) => c.text).join("\n")).toBeFalsy();
  const filed = asked.structuredContent as Filed;
  expect(filed.status).toBe("pending");
  return filed;
}

const resultOf = async (client: Client, approvalId: string) =>
  ((await client.callTool({ name: "get_operation_result", arguments: { approval_id: approvalId } })) as Result)
    .structuredContent;

const nav = (page: Page) => page.getByRole("navigation", { name: "Sections" });

test("an agent's write: the approve_url opens the request, Approve and run asks first, the write runs once, the agent reads the result and the count clears", async ({
  page,
}) => {
  const { team, connection, client } = await writerSetup("Approvals Co");
  const filed = await askToSetNote(client, connection.id, "Launch on Friday");
  expect(filed.summary).toContain("Launch on Friday");

  await signIn(page, team.users[0].email);
  // The navigation counts what waits, and says so to a screen reader.
  await expect(nav(page).getByRole("link", { name: "Approvals 1 pending" })).toBeVisible();
  await expect(nav(page).getByTestId("pending-approvals-badge")).toHaveText("1 pending");

  // The Operations page: the sandbox's read and write, with the team's connection.
  await nav(page).getByRole("link", { name: "Operations" }).click();
  const grid = page.getByRole("grid", { name: "Operations" });
  const report = grid.getByRole("row").filter({ hasText: "sandbox.report" });
  const setNote = grid.getByRole("row").filter({ hasText: "sandbox.set_note" });
  await expect(report).toContainText("Read");
  await expect(report).toContainText("Notes account");
  await expect(setNote).toContainText("Write");
  await expect(setNote).toContainText("needs approval");
  await expect(setNote).toContainText("Notes account");
  await expect(page.getByTestId("operations-count")).toContainText(/\d+ operations · \d+ writes?/);
  // One count of the catalogue on this page, in `operation list` and on /docs/connections (which
  // once summed its per-type column: 137 against 136).
  const listed = await cli("operation", "list");
  const catalogue = `${(listed.json as { operations: unknown[] }).operations.length} operations`;
  await expect(page.getByTestId("operations-count")).toContainText(`${catalogue} ·`);
  await page.getByLabel("Search").fill("note");
  await expect(grid.getByRole("row").filter({ hasText: "sandbox.set_note" })).toBeVisible();
  await page.getByLabel("Kind").selectOption("read");
  await expect(page).toHaveURL(/kind=read/);
  await expect(grid.getByRole("row").filter({ hasText: "sandbox.set_note" })).toHaveCount(0);
  await page.getByLabel("Kind").selectOption("write");
  await grid.getByRole("row").filter({ hasText: "sandbox.set_note" }).click();
  const opPanel = page.getByRole("dialog", { name: "Set the sandbox account's note" });
  await expect(opPanel.getByTestId("operation-field")).toContainText(["note"]);
  await expect(opPanel.getByTestId("operation-field").first()).toContainText("required");
  await expect(opPanel.getByRole("region", { name: "Example input" })).toContainText("Campaign review on Monday");
  await screenshot(page, "operations-detail");
  await page.keyboard.press("Escape");
  await expect(opPanel).toBeHidden();
  await page.goto("/docs/connections");
  await expect(page.getByTestId("catalogue-count")).toHaveText(`${catalogue} in the catalogue`);

  // The link the agent handed over, on a fresh page load.
  await page.goto(filed.approve_url);
  const panel = page.getByRole("dialog", { name: /^Approval request/ });
  await expect(panel.getByTestId("approval-summary")).toHaveText(filed.summary);
  await expect(panel.getByRole("region", { name: "Input" })).toContainText('"Launch on Friday"');
  await expect(panel.getByRole("region", { name: "State before" })).toContainText("null");
  await expect(panel.getByTestId("approval-connection")).toContainText("Notes account");
  await expect(panel.getByTestId("approval-connection")).toContainText("Sandbox");
  await expect(panel).toContainText(team.users[0].email);
  await expect(panel).toContainText("via Claude Desktop");
  await expect(panel.getByTestId("auth-link-countdown")).toContainText(/Expires in (59|60) min|Expires in 1 h/);
  // The list behind it has the request too.
  await expect(
    page.getByRole("grid", { name: "Approval requests" }).getByRole("row").filter({ hasText: "Launch on Friday" }),
  ).toContainText("Pending");
  await screenshot(page, "approval-detail");

  // Approve asks first, repeating what will be written where; Cancel writes nothing.
  await panel.getByRole("button", { name: "Approve and run" }).click();
  const confirm = page.getByRole("dialog", { name: "Approve and run this write?" });
  await expect(confirm.getByTestId("confirm-summary")).toHaveText(filed.summary);
  await expect(confirm).toContainText("Notes account");
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(confirm).toBeHidden();
  // Escape closed only the confirmation, not the panel under it.
  await expect(panel).toBeVisible();
  expect(await resultOf(client, filed.approval_id)).toEqual({ approval_id: filed.approval_id, status: "pending" });

  await panel.getByRole("button", { name: "Approve and run" }).click();
  await confirm.getByRole("button", { name: "Approve and run" }).click();
  await expect(confirm).toBeHidden();
  const outcome = panel.getByTestId("approval-outcome");
  await expect(outcome).toContainText("Succeeded");
  await expect(outcome).toContainText(`Approved by ${team.users[0].email}`);
  await expect(panel.getByRole("region", { name: "Result" })).toContainText('"Launch on Friday"');
  await expect(panel.getByRole("button", { name: "Approve and run" })).toHaveCount(0);
  await screenshot(page, "approval-succeeded");

  // The count clears without a reload (the decision invalidated it).
  await expect(nav(page).getByRole("link", { name: "Approvals", exact: true })).toBeVisible();
  await expect(nav(page).getByTestId("pending-approvals-badge")).toHaveCount(0);
  expect(await resultOf(client, filed.approval_id)).toEqual({
    approval_id: filed.approval_id,
    status: "succeeded",
    result: { note: "Launch on Friday", previous_note: null },
  });

  // Closed, the pending list is empty and says what approvals are; "All statuses" shows the decided request.
  await panel.getByRole("button", { name: "Close approval detail" }).click();
  await expect(panel).toBeHidden();
  await expect(page).not.toHaveURL(/approval=/);
  await expect(page.getByText("No approvals waiting")).toBeVisible();
  // Requests come from the Agent too, not only from MCP servers.
  await expect(
    page.getByText(/Requests come from the Agent \(every write it asks for\), and from apps on an MCP server/),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "Settings → MCP servers" })).toHaveAttribute(
    "href",
    `/${team.id}/settings/mcp-servers`,
  );
  await page.getByLabel("Status").selectOption("all");
  await expect(
    page.getByRole("grid", { name: "Approval requests" }).getByRole("row").filter({ hasText: "Launch on Friday" }),
  ).toContainText("Succeeded");
});

test("reject with a note: the agent is told why and nothing is written; a request decided elsewhere meanwhile says who decided it", async ({
  page,
}) => {
  const { team, connection, client } = await writerSetup("Rejections Co");
  const first = await askToSetNote(client, connection.id, "Double the budget");
  const second = await askToSetNote(client, connection.id, "Pause everything");
  const [owner, member] = team.users;

  // A member (not the owner) decides, from the list.
  await signIn(page, member.email);
  await expect(nav(page).getByRole("link", { name: "Approvals 2 pending" })).toBeVisible();
  await page.goto(`/${team.id}/approvals`);
  const grid = page.getByRole("grid", { name: "Approval requests" });
  await expect(grid.getByRole("row")).toHaveCount(3);
  // Newest first.
  await expect(grid.getByRole("row").nth(1)).toContainText("Pause everything");
  await expect(grid.getByRole("row").nth(2)).toContainText("Double the budget");
  await expect(page.getByTestId("pending-approvals")).toHaveText("2 requests wait for a decision.");

  // Keyboard: the row opens with Enter, the URL names it.
  await grid.getByRole("row").nth(2).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`approval=${first.approval_id}`));
  const panel = page.getByRole("dialog", { name: /^Approval request/ });
  await expect(panel.getByTestId("approval-summary")).toHaveText(first.summary);
  await panel.getByLabel("Note (optional)").fill("Not this quarter");
  await panel.getByRole("button", { name: "Reject" }).click();
  const outcome = panel.getByTestId("approval-outcome");
  await expect(outcome).toContainText("Rejected");
  await expect(outcome).toContainText(`Rejected by ${member.email}`);
  await expect(outcome).toContainText("Not this quarter");
  await expect(nav(page).getByRole("link", { name: "Approvals 1 pending" })).toBeVisible();
  expect(await resultOf(client, first.approval_id)).toMatchObject({
    approval_id: first.approval_id,
    status: "rejected",
    error: expect.stringContaining("Not this quarter"),
  });
  // Escape closes the panel; the rejected request has left the pending list.
  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
  await expect(grid.getByRole("row")).toHaveCount(2);

  // The second request is approved from the CLI while the member looks at it: their Reject loses, and says to whom.
  await grid.getByRole("row").nth(1).click();
  await expect(panel.getByTestId("approval-summary")).toHaveText(second.summary);
  const approved = await cli("approval", "approve", "--id", second.approval_id, "--user", owner.id);
  expect(approved).toEqual({ code: 0, json: { id: second.approval_id, status: "succeeded" } });
  await panel.getByRole("button", { name: "Reject" }).click();
  await expect(panel.getByTestId("approval-already-decided")).toHaveText(
    `Already approved by ${owner.email} — the write ran once.`,
  );
  await expect(panel.getByText("Not decided")).toHaveCount(0);
  // The panel then shows what really happened.
  await expect(panel.getByTestId("approval-outcome")).toContainText("Succeeded");
  await expect(nav(page).getByTestId("pending-approvals-badge")).toHaveCount(0);
  expect(await resultOf(client, second.approval_id)).toMatchObject({
    status: "succeeded",
    result: { note: "Pause everything", previous_note: null },
  });
});

// Fails today: the team layout's sign-in redirect comes back to /{team} (requireUser(`/${team}`)),
// not to the approvals page with its ?approval=, and a page cannot redirect first (the layout's check runs before it).
test("an approve_url opened signed out comes back to the request after signing in", async ({ page }) => {
  const { team, connection, client } = await writerSetup("Signed Out Co");
  const filed = await askToSetNote(client, connection.id, "After sign-in");
  await page.goto(filed.approve_url);
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByLabel("Email").fill(team.users[0].email);
  await page.getByLabel("Password").fill("correct horse battery staple");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("dialog", { name: /^Approval request/ }).getByTestId("approval-summary")).toHaveText(
    filed.summary,
  );
});

test("consent that holds: the owner forbids self-approval in Settings, a member's private request shows redacted with no decision, a request whose server lost writes shows cancelled", async ({
  page,
}) => {
  const { team, connection, client } = await writerSetup("Consent Co");
  const [owner, member] = team.users;
  const own = await askToSetNote(client, connection.id, "Owner's own note");
  // The member's private connection, on their own server with writes under approval.
  const priv = await (
    await apiAs(member)
  ).post("/v1/connections", {
    data: {
      connection_type: "sandbox_key",
      name: "Member diary",
      credentials: { api_key: `sk-diary-${Date.now()}` },
      is_private: true,
    },
  });
  expect(priv.status(), await priv.text()).toBe(200);
  const privId = ((await priv.json()) as { id: string }).id;
  const made = await cli(
    "mcp",
    "create",
    "--team",
    team.id,
    "--user",
    member.id,
    "--name",
    "Member writer",
    "--connections",
    privId,
    "--writes",
    "approval",
    "--private",
  );
  expect(made.code, JSON.stringify(made.json)).toBe(0);
  const memberClient = await mcpClient(made.json.token);
  const secret = await askToSetNote(memberClient, privId, "Diary secret");

  await signIn(page, owner.email);
  await page.goto(`/${team.id}/settings/mcp-servers`);
  const rule = page.getByRole("switch", { name: "Require another member to approve a request" });
  await expect(rule).not.toBeChecked();
  await expect(page.getByTestId("self-approval-consequence")).toContainText("any member may approve");
  await rule.click();
  await expect(rule).toBeChecked();
  await expect(page.getByTestId("self-approval-consequence")).toContainText("another member must approve it");

  // The owner's own request: Approve is off and says why; Reject stays.
  await page.goto(`/${team.id}/approvals?approval=${own.approval_id}`);
  const panel = page.getByRole("dialog", { name: /^Approval request/ });
  await expect(panel.getByTestId("approval-self")).toContainText("your own");
  await expect(panel.getByRole("button", { name: "Approve and run" })).toBeDisabled();
  await expect(panel.getByRole("button", { name: "Reject" })).toBeEnabled();

  // The member's private request: listed, redacted, no decision; not counted for the owner.
  await expect(nav(page).getByRole("link", { name: "Approvals 1 pending" })).toBeVisible();
  await page.goto(`/${team.id}/approvals?approval=${secret.approval_id}`);
  await expect(panel.getByTestId("approval-private")).toBeVisible();
  await expect(panel.getByTestId("approval-connection")).toContainText("Private connection");
  await expect(panel).not.toContainText("Diary secret");
  await expect(panel).not.toContainText("Member diary");
  await expect(panel.getByRole("button", { name: "Approve and run" })).toHaveCount(0);
  await expect(panel.getByRole("button", { name: "Reject" })).toHaveCount(0);
  await expect(page.getByRole("grid", { name: "Approval requests" })).not.toContainText("Diary secret");
  await screenshot(page, "approval-private-redacted");

  // Writes turned off on the owner's server: its request is cancelled, and the page says why.
  const servers = await page.request.get("/api/dashboard/mcp-servers", { headers: { "x-patchbay-team": team.id } });
  const serverId = ((await servers.json()).data as { id: string; name: string }[]).find(
    (s) => s.name === "Claude Desktop",
  )!.id;
  const off = await page.request.patch(`/api/dashboard/mcp-servers/${serverId}`, {
    headers: { "x-patchbay-team": team.id },
    data: { write_policy: "off" },
  });
  expect(off.status(), await off.text()).toBe(200);
  await page.goto(`/${team.id}/approvals?approval=${own.approval_id}`);
  await expect(panel.getByTestId("approval-outcome")).toContainText("Cancelled");
  await expect(panel.getByTestId("approval-outcome")).toContainText("writes were turned off");
  await expect(panel.getByRole("button", { name: "Reject" })).toHaveCount(0);
  expect(await resultOf(client, own.approval_id)).toMatchObject({ status: "cancelled" });
});

test("approved in one tab, then in another: the second says it was already approved and the write ran once; the request links to the write's log", async ({
  page,
  context,
}) => {
  const { team, connection, client } = await writerSetup("Two Tabs Co");
  const filed = await askToSetNote(client, connection.id, "Only once");
  await signIn(page, team.users[0].email);
  const second = await context.newPage();
  await page.goto(filed.approve_url);
  await second.goto(filed.approve_url);
  const approve = async (p: Page) => {
    const panel = p.getByRole("dialog", { name: /^Approval request/ });
    await panel.getByRole("button", { name: "Approve and run" }).click();
    await p
      .getByRole("dialog", { name: "Approve and run this write?" })
      .getByRole("button", { name: "Approve and run" })
      .click();
    return panel;
  };
  // The second tab still shows it pending when its click comes, however long the first approval
  // takes on a busy machine: its refreshes (every 15 s while pending) wait until it has clicked.
  await expect(
    second.getByRole("dialog", { name: /^Approval request/ }).getByRole("button", { name: "Approve and run" }),
  ).toBeEnabled();
  let clicked!: () => void;
  const afterClick = new Promise<void>((resolve) => (clicked = resolve));
  await second.route("**/api/dashboard/approvals**", async (route) => {
    if (route.request().method() === "GET") await afterClick;
    await route.continue();
  });
  const first = await approve(page);
  await expect(first.getByTestId("approval-outcome")).toContainText("Succeeded");

  // The second tab still showed it pending: its click loses, and says what happened instead.
  const late = await approve(second);
  clicked();
  await expect(late.getByTestId("approval-already-decided")).toHaveText(
    `Already approved by ${team.users[0].email} — the write ran once.`,
  );
  await expect(late.getByText("Not decided")).toHaveCount(0);
  await expect(late.getByTestId("approval-outcome")).toContainText("Succeeded");
  // Exactly one write ran: one log of it.
  const logs = (await (await (await apiAs(team.users[0])).get("/v1/logs?operation_id=sandbox.set_note")).json())
    .data as { id: string }[];
  expect(logs).toHaveLength(1);

  // The request links to that log, opened on the Logs page.
  await late.getByTestId("approval-log-link").click();
  await expect(second).toHaveURL(new RegExp(`/${team.id}/logs\\?log=${logs[0].id}$`));
  await expect(second.getByRole("dialog")).toContainText(logs[0].id);
  await expect(second.getByRole("dialog")).toContainText(filed.approval_id);
});
