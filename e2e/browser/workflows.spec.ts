import type { Page } from "@playwright/test";
import { test, expect, apiAs, cli, seed } from "../fixtures";
import { screenshot, seedTeamWithPasswords, signIn } from "../support/browser";

// Workflows in the browser: from a template to a saved workflow in a few clicks, Run now and
// the run followed to success, its nodes with their outputs, the same run in Logs; and what a
// member (not an owner) is told and kept from doing with a workflow that writes.

const nav = (page: Page) => page.getByRole("navigation", { name: "Sections" });

/** A team (owner and member) with a shared sandbox_key connection. */
async function teamWithSandbox(name: string) {
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
  const connection = (await res.json()) as { id: string };
  return { team, connection };
}

test("from a template to a saved workflow, Run now followed to success, its nodes' outputs, and the run's logs", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { team, connection } = await teamWithSandbox("Workflows Co");
  await signIn(page, team.users[0].email);

  // The empty list says what workflows are and offers the templates.
  await nav(page).getByRole("link", { name: "Workflows" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Workflows" })).toBeVisible();
  await expect(page.getByText("No workflows yet")).toBeVisible();
  await expect(page.getByRole("link", { name: "Sandbox sessions to a note" })).toBeVisible();

  await page.getByRole("link", { name: "From a template" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("New workflow from a template");
  const card = page.getByTestId("workflow-template").filter({ hasText: "Sandbox sessions to a note" });
  await expect(card).toContainText("Sandbox connection · you have 1");
  await card.getByRole("link", { name: "Sandbox sessions to a note", exact: true }).click();

  // The setup: the one sandbox connection, the write it will make and where, then Create.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("New workflow from “Sandbox sessions to a note”");
  const slot = page.getByLabel("Sandbox connection");
  await slot.selectOption(connection.id);
  const note = page.getByTestId("write-note");
  await expect(note).toContainText("Save it as the account's note (sandbox.set_note) writes to Notes account");
  await expect(note).toContainText("You are an owner of this team.");
  await expect(page.getByRole("switch", { name: "Active" })).toBeChecked();
  await screenshot(page, "workflow-template-setup");
  await page.getByRole("button", { name: "Create workflow" }).click();

  // The workflow page: active, hourly, its three nodes.
  await expect(page).toHaveURL(new RegExp(`/${team.id}/workflows/wf_[A-Za-z0-9]+$`));
  const workflowId = page.url().split("/").pop()!;
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sandbox sessions to a note");
  await expect(page.getByTestId("workflow-schedule")).toContainText("Every hour, on the hour (UTC)");
  await expect(page.getByTestId("workflow-schedule")).toContainText("next run");
  await expect(page.getByTestId("workflow-node")).toHaveCount(3);
  await expect(page.getByTestId("workflow-node").nth(2)).toContainText("Notes account");
  await expect(page.getByText("No runs yet")).toBeVisible();

  // Run now: the history shows the run and follows it until it succeeds.
  await page.getByRole("button", { name: "Run now" }).click();
  // Run now queues the run: until a worker takes it, it is "queued", never "started".
  await expect(page.getByTestId("run-started")).toContainText(
    / (is queued: it starts in a moment|is running|has ended)/,
  );
  await expect(page.getByTestId("run-started")).not.toContainText("started");
  const runs = page.getByRole("grid", { name: "Runs" });
  const first = runs.getByRole("row").nth(1);
  await expect(first).toContainText("Succeeded", { timeout: 30_000 });
  await expect(first).toContainText("Manual");
  await expect(first).toContainText(team.users[0].email);

  // The run: three nodes that succeeded, each with its output.
  await first.click();
  await expect(page).toHaveURL(/[?&]run=run_/);
  const runId = new URL(page.url()).searchParams.get("run")!;
  const panel = page.getByRole("dialog", { name: /^Run / });
  await expect(panel.getByTestId("run-node-count")).toHaveText("3 of 3 nodes succeeded");
  await expect(panel.getByTestId("run-node")).toHaveCount(3);
  for (let i = 0; i < 3; i++) await expect(panel.getByTestId("run-node").nth(i)).toContainText("Succeeded");
  await expect(panel.getByRole("region", { name: "Output of Sessions, last 7 days (report)" })).toContainText(
    '"total"',
  );
  await expect(panel.getByRole("region", { name: "Output of Write the note (message)" })).toContainText(
    "sessions in the 7 days to",
  );
  await expect(panel.getByRole("region", { name: "Output of Save it as the account's note (note)" })).toContainText(
    "sessions in the 7 days to",
  );
  // The input is folded away until asked for.
  const input = panel.getByTestId("run-node").nth(2).locator("details").first();
  await input.locator("> summary").click();
  await expect(panel.getByRole("region", { name: "Input of Save it as the account's note (note)" })).toContainText(
    '"note"',
  );
  await screenshot(page, "workflow-run-detail");

  await expect(panel.getByRole("link", { name: "Open in Logs" })).toHaveAttribute(
    "href",
    `/${team.id}/logs?source_run_id=${runId}`,
  );
  // The run's charge: the Ledger filtered to its one entry, whose own link leads back to the run's logs.
  await panel.getByRole("link", { name: "Its charge in the Ledger" }).click();
  await expect(page).toHaveURL(new RegExp(`/${team.id}/ledger\\?service_type=workflow&service_id=${workflowId}&`));
  const chargeUrl = page.url();
  const entries = page.getByRole("grid", { name: "Credit ledger" });
  await expect(entries.getByRole("row")).toHaveCount(2);
  await expect(entries.getByRole("row").nth(1)).toContainText("Sandbox sessions to a note");
  await entries.getByRole("link", { name: "Logs of this charge" }).click();
  await expect(page).toHaveURL(new RegExp(`/${team.id}/logs\\?source_run_id=${runId}$`));
  const logs = page.getByRole("grid", { name: "Operation logs" });
  await expect(logs.getByRole("row")).toHaveCount(4);
  await expect(page.getByTestId("end-of-list")).toContainText("3 rows");
  for (const op of ["sandbox.report", "utility.format_text", "sandbox.set_note"])
    await expect(logs.getByRole("row").filter({ hasText: op })).toHaveCount(1);

  // A log leads to its workflow, its run and the run's charge: the run's link opens the run on its workflow's page.
  await logs.getByRole("row").filter({ hasText: "sandbox.set_note" }).click();
  const logPanel = page.getByRole("dialog", { name: /^Log / });
  await expect(logPanel.getByTestId("log-source-link")).toHaveAttribute("href", `/${team.id}/workflows/${workflowId}`);
  await logPanel.getByRole("link", { name: "The run's charge in the ledger" }).click();
  await expect(page).toHaveURL(chargeUrl);
  await page.goBack();
  await logPanel.getByRole("link", { name: `Run ${runId} on its workflow's page` }).click();
  await expect(page).toHaveURL(new RegExp(`/${team.id}/workflows/${workflowId}\\?run=${runId}$`));
  await expect(page.getByRole("dialog", { name: /^Run / }).getByTestId("run-node-count")).toHaveText(
    "3 of 3 nodes succeeded",
  );

  // The list: active, writes, hourly, last run succeeded, its credits this period.
  await nav(page).getByRole("link", { name: "Workflows" }).click();
  const row = page
    .getByRole("grid", { name: "Workflows" })
    .getByRole("row")
    .filter({ hasText: "Sandbox sessions to a note" });
  await expect(row).toContainText("Active");
  await expect(row).toContainText("Writes");
  await expect(row).toContainText("Every hour, on the hour");
  await expect(row).toContainText("Succeeded");
  await expect(row).not.toContainText("Never run");
  await row.click();
  await expect(page).toHaveURL(new RegExp(`/workflows/${workflowId}$`));
});

test("the editor: built-in nodes need no connection, references are listed per node, the schedule previews its next runs, and a 400 names every problem", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const { team } = await teamWithSandbox("Editor Co");
  await signIn(page, team.users[0].email);
  await page.goto(`/${team.id}/workflows/new`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("New workflow");

  // Saved empty: each missing field is named with its node, marked invalid, and says why beside it.
  const node1 = page.getByRole("group", { name: /^Node 1/ });
  await expect(page.getByLabel("Name")).toHaveAttribute("aria-required", "true");
  await expect(node1.getByLabel("Label")).toHaveAttribute("aria-required", "true");
  await page.getByRole("button", { name: "Save workflow" }).click();
  const missing = page.getByTestId("save-problems");
  await expect(missing).toContainText("Not saved: fix these 3 problems first");
  await expect(missing).toContainText("Name: is required: give the workflow a name");
  await expect(missing).toContainText("Node 1 (node_1) · Label: is required");
  await expect(missing).toContainText("Node 1 (node_1) · Operation: is required: choose an operation");
  await expect(missing).not.toContainText("nodes.0");
  await expect(page.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Name")).toHaveAccessibleDescription(/is required: give the workflow a name/);
  await expect(node1.getByLabel("Label")).toHaveAttribute("aria-invalid", "true");
  await expect(node1.getByRole("combobox", { name: "Operation" })).toHaveAttribute("aria-invalid", "true");
  await expect(node1.getByRole("combobox", { name: "Operation" })).toHaveAccessibleDescription(/choose an operation/);

  await page.getByLabel("Name").fill("Hello");
  await node1.getByLabel("Label").fill("Say hello");
  await node1.getByLabel("Filter the operations").fill("format");
  await node1.getByRole("combobox", { name: "Operation" }).selectOption("utility.format_text");
  await expect(node1).toContainText("Built-in: needs no connection.");
  await expect(node1.getByLabel("Connection")).toHaveCount(0);
  await expect(node1.getByLabel("template")).toHaveAttribute("placeholder", "Sessions yesterday: {total}");
  await node1.getByLabel("template").fill("Hello {{run.date.today}}");
  await expect(node1.getByTestId("node-references")).toContainText("no earlier nodes");

  // A second node refers to a node that does not exist: the server's 400 lists it with the schedule's problem.
  await page.getByRole("button", { name: "Add a node" }).click();
  const node2 = page.getByRole("group", { name: /^Node 2/ });
  await expect(node2.getByLabel("Label")).toBeFocused();
  await node2.getByLabel("Label").fill("Echo");
  await node2.getByRole("combobox", { name: "Operation" }).selectOption("utility.format_text");
  await expect(node2.getByTestId("node-references")).toContainText("outputs of node_1");
  await node2.getByLabel("template").fill("{{nodes.nope.output.text}}");

  await page.getByLabel("On a schedule").check();
  const cron = page.getByLabel("Cron expression", { exact: true });
  await cron.fill("0 9 * * 1");
  await page.getByLabel("Time zone").selectOption("Europe/Paris");
  await expect(page.getByTestId("schedule-preview")).toContainText("Every Monday at 09:00 (Europe/Paris). Next runs:");
  await expect(page.getByTestId("schedule-preview").getByRole("listitem")).toHaveCount(5);
  await expect(page.getByTestId("schedule-preview").getByRole("listitem").first()).toContainText("Mon");
  await cron.fill("0 25 * * *");
  await expect(page.getByTestId("schedule-preview")).toContainText("schedule:");

  await page.getByRole("button", { name: "Save workflow" }).click();
  const problems = page.getByTestId("save-problems");
  await expect(problems).toContainText("Not saved: fix these 2 problems first");
  await expect(problems.getByRole("listitem")).toHaveCount(2);
  await expect(problems).toContainText("Node 2 (node_2) · input.template: refers to node nope");
  await expect(page.locator(":focus")).toContainText("Not saved");
  // The server's problems are on their fields too.
  await expect(node2.getByLabel("template")).toHaveAttribute("aria-invalid", "true");
  await expect(node2.getByLabel("template")).toHaveAccessibleDescription(/refers to node nope/);
  await expect(node1.getByLabel("template")).not.toHaveAttribute("aria-invalid", "true");
  await expect(cron).toHaveAttribute("aria-invalid", "true");
  await expect(cron).toHaveAccessibleDescription(/is not a valid cron expression/);

  // Fixed: the second node uses the first's output; the nodes swap and swap back with the keyboard's focus kept on the button.
  await node2.getByLabel("template").fill("{{nodes.node_1.output.text}}!");
  await cron.fill("30 8 * * *");
  await expect(page.getByTestId("schedule-preview")).toContainText("Every day at 08:30");
  await node2.getByRole("button", { name: /up$/ }).click();
  await expect(page.getByRole("group", { name: /^Node 1 · Echo/ })).toBeVisible();
  await expect(
    page.getByRole("group", { name: /^Node 1 · Echo/ }).getByRole("button", { name: /down$/ }),
  ).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("group", { name: /^Node 1 · Say hello/ })).toBeVisible();
  await page.getByRole("button", { name: "Save workflow" }).click();

  await expect(page).toHaveURL(new RegExp(`/${team.id}/workflows/wf_[A-Za-z0-9]+$`));
  await expect(page.getByTestId("workflow-schedule")).toContainText("Every day at 08:30 (Europe/Paris)");
  await expect(page.getByTestId("workflow-node")).toHaveCount(2);
  await expect(page.getByTestId("write-note")).toHaveCount(0);

  // The Operations page shows the built-in utilities as such, not as missing a connection.
  await page.goto(`/${team.id}/operations?q=utility.format_text`);
  const utility = page
    .getByRole("grid", { name: "Operations" })
    .getByRole("row")
    .filter({ hasText: "utility.format_text" });
  await expect(utility).toContainText("Built-in");
  await expect(utility).toContainText("Needs none; used in workflows");
  await utility.click();
  await expect(page.getByTestId("operation-built-in")).toHaveText("Built-in — needs no connection; used in workflows.");
});

test("a member sees which nodes write and where, and cannot activate (or run by hand) a workflow that writes", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const { team, connection } = await teamWithSandbox("Members Co");
  const [owner, member] = team.users;
  const nodes = [
    {
      id: "report",
      label: "Sessions",
      operation_id: "sandbox.report",
      connection_id: connection.id,
      input: { metric: "sessions", days: 7 },
    },
    {
      id: "note",
      label: "Save the note",
      operation_id: "sandbox.set_note",
      connection_id: connection.id,
      input: { note: "{{nodes.report.output.total}} sessions" },
    },
  ];
  const made = await cli(
    "workflow",
    "create",
    "--team",
    team.id,
    "--user",
    owner.id,
    "--name",
    "Owner's notes",
    "--nodes",
    JSON.stringify(nodes),
    "--inactive",
  );
  expect(made.code, JSON.stringify(made.json)).toBe(0);

  await signIn(page, member.email);
  await page.goto(`/${team.id}/workflows`);
  const row = page.getByRole("grid", { name: "Workflows" }).getByRole("row").filter({ hasText: "Owner's notes" });
  await expect(row).toContainText("Inactive");
  await expect(row).toContainText("Writes");
  await expect(row).toContainText("Never run");
  await row.click();

  // Its page: Activate and Run now are for owners, and it says so.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Owner's notes");
  await expect(page.getByRole("button", { name: "Activate" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Run now" })).toBeDisabled();
  await expect(
    page.getByText(
      "Only a team owner can activate a workflow with write nodes, or run it by hand while it is inactive.",
    ),
  ).toBeVisible();
  await expect(page.getByTestId("write-note")).toContainText(
    "Save the note (sandbox.set_note) writes to Notes account",
  );
  await expect(page.getByTestId("write-note")).toContainText(
    "You are a member: save it inactive and ask an owner to activate it.",
  );

  // The editor: the same note, and the Active switch locked off.
  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page.getByRole("group", { name: /^Node 2/ })).toContainText("This node writes");
  await expect(page.getByTestId("write-note")).toContainText(
    "Save the note (sandbox.set_note) writes to Notes account (Sandbox (API key))",
  );
  const active = page.getByRole("switch", { name: "Active" });
  await expect(active).toBeDisabled();
  await expect(active).not.toBeChecked();
  await expect(
    page.getByText(
      "Only a team owner can activate a workflow with write nodes: save it inactive and ask an owner to activate it.",
    ),
  ).toBeVisible();
  // A member may still change it: saved inactive.
  await page.getByLabel("Name").fill("Owner's notes (edited)");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Owner's notes (edited)");
  await expect(page.getByRole("button", { name: "Activate" })).toBeDisabled();

  // A template that writes: the member's setup saves it inactive.
  await page.goto(`/${team.id}/workflows/new?template=sandbox_daily_note`);
  await expect(page.getByTestId("write-note")).toContainText("You are a member");
  await expect(page.getByRole("switch", { name: "Active" })).toBeDisabled();
  await page.getByLabel("Sandbox connection").selectOption(connection.id);
  await page.getByRole("button", { name: "Create workflow" }).click();
  await expect(page).toHaveURL(new RegExp(`/${team.id}/workflows/wf_[A-Za-z0-9]+$`));
  await expect(page.getByText("Inactive", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Activate" })).toBeDisabled();

  // The API agrees: a member's activation is refused with the writes named.
  const api = await page.request.patch(`/api/dashboard/workflows/${made.json.id}`, {
    headers: { "x-patchbay-team": team.id },
    data: { active: true },
  });
  expect(api.status()).toBe(403);
  expect((await api.json()).detail).toContain("Save the note (sandbox.set_note) writes to Notes account");
});

test("a deleted connection: the workflow says why it stopped, Rebind moves its nodes to another connection, then it is activated; Delete asks first", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const { team, connection } = await teamWithSandbox("Rebind Co");
  const owner = team.users[0];
  const api = await apiAs(owner);
  const spare = (await (
    await api.post("/v1/connections", {
      data: { connection_type: "sandbox_key", name: "New key", credentials: { api_key: `sk-new-${Date.now()}` } },
    })
  ).json()) as { id: string };
  const nodes = [
    {
      id: "report",
      label: "Users",
      operation_id: "sandbox.report",
      connection_id: connection.id,
      input: { metric: "users" },
    },
    {
      id: "again",
      label: "Users again",
      operation_id: "sandbox.report",
      connection_id: connection.id,
      input: { metric: "users", days: 3 },
    },
  ];
  const made = await cli(
    "workflow",
    "create",
    "--team",
    team.id,
    "--user",
    owner.id,
    "--name",
    "Users report",
    "--nodes",
    JSON.stringify(nodes),
    "--schedule",
    "*/30 * * * *",
  );
  expect(made.code, JSON.stringify(made.json)).toBe(0);
  expect((await api.delete(`/v1/connections/${connection.id}`)).status()).toBe(200);

  await signIn(page, owner.email);
  await page.goto(`/${team.id}/workflows`);
  const row = page.getByRole("grid", { name: "Workflows" }).getByRole("row").filter({ hasText: "Users report" });
  await expect(row).toContainText("Inactive");
  await expect(row).toContainText("Deactivated because");
  await expect(row.getByTestId("connection-problem")).toContainText("2 nodes fail");
  await row.click();

  await expect(page.getByTestId("deactivated-reason")).toContainText("deleted");
  await expect(page.getByTestId("connection-problems")).toContainText(
    "Users (report): deleted: rebind the workflow to another connection",
  );
  await expect(page.getByTestId("node-connection-problem")).toHaveText([
    "⚠ Deleted: rebind it",
    "⚠ Deleted: rebind it",
  ]);
  await page.getByRole("button", { name: "Rebind to another connection" }).click();
  const dialog = page.getByRole("dialog", { name: "Rebind to another connection" });
  await expect(dialog.getByLabel("From")).toHaveValue(connection.id);
  await dialog.getByLabel("To").selectOption(spare.id);
  await dialog.getByRole("button", { name: "Rebind" }).click();
  await expect(dialog.getByTestId("rebind-result")).toHaveText("2 nodes now use New key (Sandbox (API key)).");
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("connection-problems")).toHaveCount(0);
  await expect(page.getByTestId("workflow-node").first()).toContainText("New key");

  await page.getByRole("button", { name: "Activate" }).click();
  await expect(page.getByRole("button", { name: "Deactivate" })).toBeVisible();
  await expect(page.getByTestId("workflow-schedule")).toContainText("Every 30 minutes (UTC)");
  await expect(page.getByTestId("workflow-schedule")).toContainText("next run in");

  // Delete asks first; Cancel keeps it, the confirmation deletes it and goes back to the list.
  await page.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete “Users report”?" });
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await page.getByRole("button", { name: "Delete" }).click();
  await confirm.getByRole("button", { name: "Delete workflow" }).click();
  await expect(page).toHaveURL(new RegExp(`/${team.id}/workflows$`));
  await expect(page.getByText("No workflows yet")).toBeVisible();
});

test("a run refused for want of credits says so, with the reason", async ({ page }) => {
  const team = await seedTeamWithPasswords({ name: "Broke Co", creditsLimit: 5 });
  await seed("charges", { team: team.id, charges: [{ credits: 5, type: "mcp" }] });
  const hello = [
    {
      id: "hello",
      label: "Say hello",
      operation_id: "utility.format_text",
      input: { template: "Hello {{run.date.today}}" },
    },
  ];
  const made = await cli(
    "workflow",
    "create",
    "--team",
    team.id,
    "--user",
    team.users[0].id,
    "--name",
    "Hello",
    "--nodes",
    JSON.stringify(hello),
  );
  expect(made.code, JSON.stringify(made.json)).toBe(0);

  await signIn(page, team.users[0].email);
  await page.goto(`/${team.id}/workflows/${made.json.id}`);
  await page.getByRole("button", { name: "Run now" }).click();
  const first = page.getByRole("grid", { name: "Runs" }).getByRole("row").nth(1);
  await expect(first).toContainText("Refused", { timeout: 30_000 });
  await expect(first).toContainText("no credits");
  await first.click();
  const outcome = page.getByRole("dialog", { name: /^Run / }).getByTestId("run-outcome");
  await expect(outcome).toContainText("Refused: no credits");
  await expect(outcome).toContainText("This team has no credits left");
});
