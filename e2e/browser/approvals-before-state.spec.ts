import { test, expect, anonymous, apiAs, cli } from "../fixtures";
import { screenshot, seedTeamWithPasswords, signIn } from "../support/browser";
import { mcpClient } from "../support/mcp";

// Issue 45, "What a person approves is what runs", in the browser: a request whose account changed
// after it was filed (another request on it was approved) says so in its panel and its confirm
// dialog, with both values, and shows the state now; a change while the dialog is open is refused
// (nothing written) and the panel shows the new state; confirming what is shown then runs.

type Result = { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, unknown> };
type Filed = { approval_id: string; summary: string; approve_url: string };

test("a request whose note changed since it was filed: the panel and the confirm dialog say so with both values, a change under the dialog is refused, approving what is shown runs", async ({
  page,
}) => {
  const team = await seedTeamWithPasswords({ name: "Changed State Co", members: 1 });
  const owner = team.users[0];
  const apiKey = `sk-changed-${Date.now()}`;
  const res = await (
    await apiAs(owner)
  ).post("/v1/connections", {
    data: {
      connection_type: "sandbox_key",
      name: "Notes account",
      credentials: { api_key: apiKey },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const connection = (await res.json()) as { id: string };
  const made = await cli(
    "mcp",
    "create",
    "--team",
    team.id,
    "--user",
    owner.id,
    "--name",
    "Claude Desktop",
    "--connections",
    connection.id,
    "--writes",
    "approval",
  );
  expect(made.code, JSON.stringify(made.json)).toBe(0);
  const client = await mcpClient(made.json.token);
  const ask = async (note: string) => {
    const asked = (await client.callTool({
      name: "run_write_operation",
      arguments: { operation_id: "sandbox.set_note", connection_id: connection.id, input: { note } },
    })) as Result;
    expect(asked.isError, asked.content.map((c) => c.text).join("\n")).toBeFalsy();
    return asked.structuredContent as Filed;
  };
  const approveFromCli = async (filed: Filed) =>
    expect(await cli("approval", "approve", "--id", filed.approval_id, "--user", owner.id)).toEqual({
      code: 0,
      json: { id: filed.approval_id, status: "succeeded" },
    });

  await approveFromCli(await ask("focus test"));
  const other = await ask("two tabs test 2");
  const mine = await ask("final note");
  expect(mine.summary).toContain("replacing “focus test”");

  // Another request on the same account is approved before this one is opened: the panel reads the
  // account again and shows the note as it is now, saying it changed, with both values.
  await approveFromCli(other);
  await signIn(page, owner.email);
  await page.goto(mine.approve_url);
  const panel = page.getByRole("dialog", { name: /^Approval request/ });
  await expect(panel.getByTestId("approval-changed")).toContainText(
    "The note changed since this request was filed: it was “focus test”, it is now “two tabs test 2”.",
  );
  await expect(panel.getByTestId("approval-summary")).toContainText("replacing “two tabs test 2”");
  await expect(panel.getByRole("region", { name: "State before" })).toContainText('"two tabs test 2"');
  await expect(panel.getByRole("region", { name: "State when filed" })).toContainText('"focus test"');
  // So does the confirm dialog.
  await panel.getByRole("button", { name: "Approve and run" }).click();
  const confirm = page.getByRole("dialog", { name: "Approve and run this write?" });
  await expect(confirm.getByTestId("confirm-changed")).toContainText(
    "it was “focus test”, it is now “two tabs test 2”",
  );
  await expect(confirm.getByTestId("confirm-summary")).toContainText("replacing “two tabs test 2”");
  await screenshot(page, "approval-before-changed");

  // It changes again, at the provider itself, under the open dialog: confirming what it shows runs
  // nothing, says what changed, and the panel shows the state now.
  const elsewhere = await (
    await anonymous()
  ).post("/sandbox/api/note", { headers: { "x-api-key": apiKey }, data: { note: "third try" } });
  expect(elsewhere.status(), await elsewhere.text()).toBe(200);
  await confirm.getByRole("button", { name: "Approve and run" }).click();
  await expect(confirm).toBeHidden();
  await expect(panel.getByRole("alert").filter({ hasText: "Not decided" })).toContainText(
    "The note changed since you reviewed this request: it was “two tabs test 2”, it is now “third try”.",
  );
  await expect(panel.getByRole("alert").filter({ hasText: "Not decided" })).toContainText("nothing was written");
  await expect(panel.getByTestId("approval-changed")).toContainText("it was “focus test”, it is now “third try”");
  await expect(panel.getByTestId("approval-summary")).toContainText("replacing “third try”");
  await expect(panel.getByTestId("approval-outcome")).toHaveCount(0);
  const result = (await client.callTool({
    name: "get_operation_result",
    arguments: { approval_id: mine.approval_id },
  })) as Result;
  expect(result.structuredContent).toEqual({ approval_id: mine.approval_id, status: "pending" });

  // Confirming the state shown now runs it, over "third try".
  await panel.getByRole("button", { name: "Approve and run" }).click();
  await expect(confirm.getByTestId("confirm-summary")).toContainText("replacing “third try”");
  await confirm.getByRole("button", { name: "Approve and run" }).click();
  await expect(panel.getByTestId("approval-outcome")).toContainText("Succeeded");
  await expect(panel.getByRole("region", { name: "Result" })).toContainText('"third try"');
});
