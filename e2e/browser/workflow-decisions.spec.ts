import type { Page } from "@playwright/test";
import { test, expect, apiAs } from "../fixtures";
import { screenshot, seedTeamWithPasswords, signIn } from "../support/browser";

// Workflows that decide (CONTRACT §13, issue 48) in the browser: a member, not an owner, builds a
// loop over a report's rows with a condition and an approval step without writing JSON, the
// server's problem with the condition lands on its field, the member activates it (every write
// asks first) and runs it, approves one row and rejects another on the Approvals page, and reads
// the run: each row under its node, skipped and stopped rows saying why.

/** The report's days: fixed, so the rows and the condition's date are known. */
const DAYS = ["2026-01-01", "2026-01-02", "2026-01-03", "2026-01-04"];

const runPanel = (page: Page) => page.getByRole("dialog", { name: /^Run / });
const approvalPanel = (page: Page) => page.getByRole("dialog", { name: /^Approval request/ });

test("a member builds a loop with a condition and an approval step, activates and runs it, approves one row, rejects another and reads the run", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const team = await seedTeamWithPasswords({ name: "Decisions Co", members: 2 });
  const [owner, member] = team.users;
  const res = await (
    await apiAs(owner)
  ).post("/v1/connections", {
    data: { connection_type: "sandbox_key", name: "Notes account", credentials: { api_key: `sk-dec-${Date.now()}` } },
  });
  expect(res.status(), await res.text()).toBe(200);
  const connection = (await res.json()) as { id: string };

  await signIn(page, member.email, undefined, `/${team.id}/workflows/new`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("New workflow");
  await page.getByLabel("Name").fill("Daily notes, with my approval");

  // Node 1: the report of four fixed days.
  const report = page.getByRole("group", { name: /^Node 1/ });
  // The built-in stop is in the picker by its plain name.
  await expect(
    report.getByRole("combobox", { name: "Operation" }).locator("option", { hasText: "Stop the run · flow.stop" }),
  ).toHaveCount(1);
  await report.getByLabel("Label").fill("Sessions");
  await report.getByRole("combobox", { name: "Operation" }).selectOption("sandbox.report");
  await report.getByLabel("Connection").selectOption(connection.id);
  await report.getByLabel("metric", { exact: true }).selectOption("sessions");
  await report.getByLabel("days", { exact: true }).fill(String(DAYS.length));
  await report.getByLabel("end_date", { exact: true }).fill(DAYS.at(-1)!);

  // Node 2: a note per row, picked from the report's output, each write asking first.
  await page.getByRole("button", { name: "Add a node" }).click();
  const note = page.getByRole("group", { name: /^Node 2/ });
  await note.getByLabel("Label").fill("Note each day");
  await note.getByRole("combobox", { name: "Operation" }).selectOption("sandbox.set_note");
  await expect(note.getByLabel("Connection")).toHaveValue(connection.id);
  await expect(note).toContainText("This node writes: each run makes this change without asking anyone.");
  await note.getByLabel("Ask for approval before writing").check();
  await expect(note).toContainText("each write waits for a person's approval");

  const loop = note.getByLabel("For each row of…");
  await expect(loop.locator("option", { hasText: "node_1 · rows" })).toHaveCount(1);
  await loop.selectOption("{{nodes.node_1.output.rows}}");
  // The input can now use the row's fields, and the references list offers them.
  await note.getByTestId("node-references").locator("summary").click();
  await expect(note.getByTestId("node-references-item")).toContainText("{{item.date}}");
  await expect(note.getByTestId("node-references-item")).toContainText("{{item.value}}");
  await note.getByLabel("note", { exact: true }).fill("Sessions on {{item.date}}: {{item.value}}");

  // The condition: picked, not typed; read back in words. The value first refers to a node that
  // does not exist: the server's 400 lands on that row's Value field.
  await note.getByRole("button", { name: "Add a condition" }).click();
  const condition = note.getByRole("group", { name: "Condition 1" });
  await expect(condition.getByLabel("Field")).toBeFocused();
  await condition.getByLabel("Field").selectOption("{{item.date}}");
  await condition.getByLabel("Operator").selectOption({ label: "is not" });
  await condition.getByLabel("Value").fill("{{nodes.nope.output.date}}");

  // Every write asks for approval: the member may switch it on.
  const active = page.getByRole("switch", { name: "Active" });
  await expect(active).toBeEnabled();
  await active.check();
  await expect(page.getByTestId("write-note")).toContainText(
    "Every write asks for approval first, so any member of the team can activate and run it.",
  );
  await page.getByRole("button", { name: "Save workflow" }).click();
  await expect(page.getByTestId("save-problems")).toContainText(
    "Run only when, condition 1 · value: refers to node nope",
  );
  await expect(condition.getByLabel("Value")).toHaveAttribute("aria-invalid", "true");
  await expect(condition.getByLabel("Value")).toHaveAccessibleDescription(/refers to node nope/);

  await condition.getByLabel("Value").fill(DAYS[1]);
  await expect(note.getByTestId("condition-preview")).toContainText(`is not “${DAYS[1]}”; the other rows are skipped.`);
  await expect(note.getByTestId("condition-preview")).toContainText("Only the rows where");
  await screenshot(page, "workflow-decisions-editor");
  await page.setViewportSize({ width: 390, height: 844 });
  await note.scrollIntoViewIfNeeded();
  await screenshot(page, "workflow-decisions-editor-390");
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole("button", { name: "Save workflow" }).click();

  // The workflow page: active, its writes wait for approval, the node's decisions in words.
  await expect(page).toHaveURL(new RegExp(`/${team.id}/workflows/wf_[A-Za-z0-9]+$`));
  await expect(page.getByText("Writes with approval")).toBeVisible();
  const saved = page.getByTestId("workflow-node").nth(1);
  await expect(saved).toContainText("For each row of");
  await expect(saved).toContainText(`is not “${DAYS[1]}”`);
  await expect(saved).toContainText("Asks for approval before each write");
  await expect(page.getByRole("button", { name: "Deactivate" })).toBeEnabled();

  // Run now: the run parks at row 1's approval.
  await page.getByRole("button", { name: "Run now" }).click();
  const first = page.getByRole("grid", { name: "Runs" }).getByRole("row").nth(1);
  await expect(first).toContainText("Waiting for approval", { timeout: 30_000 });
  await first.click();
  const rows = runPanel(page).getByTestId("run-node").nth(1).getByTestId("run-iteration");
  await expect(rows).toHaveCount(1);
  await expect(rows.nth(0)).toContainText("Row 1 of 4");
  await expect(rows.nth(0)).toContainText("Waiting for approval");
  await expect(runPanel(page).getByTestId("run-outcome")).toContainText("Waiting for approval");

  // Approve row 1 on the Approvals page: it names the workflow, the run, the node and the row.
  await rows
    .nth(0)
    .getByRole("link", { name: /^Open the approval request/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`/${team.id}/approvals\\?approval=`));
  const origin = approvalPanel(page).getByTestId("approval-workflow-origin");
  await expect(origin).toHaveText(
    "From workflow Daily notes, with my approval · run · node Note each day · item 1 of 4",
  );
  await expect(approvalPanel(page).getByTestId("approval-workflow-item")).toContainText(DAYS[0]);
  await expect(approvalPanel(page).getByTestId("approval-summary")).toContainText(`Sessions on ${DAYS[0]}:`);
  await screenshot(page, "workflow-decisions-approval");
  await approvalPanel(page).getByRole("button", { name: "Approve and run" }).click();
  await page
    .getByRole("dialog", { name: "Approve and run this write?" })
    .getByRole("button", { name: "Approve and run" })
    .click();
  await expect(approvalPanel(page).getByTestId("approval-outcome")).toContainText("Succeeded");

  // Back to the run: row 2 is filtered out by the condition, row 3 waits for its approval.
  await approvalPanel(page)
    .getByRole("link", { name: /^Its run / })
    .click();
  const iterations = runPanel(page).getByTestId("run-node").nth(1).getByTestId("run-iteration");
  await expect(iterations).toHaveCount(3, { timeout: 20_000 });
  await expect(iterations.nth(0)).toContainText("Succeeded");
  await expect(iterations.nth(1)).toContainText("Skipped: the condition did not hold.");
  await expect(iterations.nth(2)).toContainText("Waiting for approval");

  // Reject row 3: the run stops there, row 4 never runs.
  await iterations
    .nth(2)
    .getByRole("link", { name: /^Open the approval request/ })
    .click();
  await expect(approvalPanel(page).getByTestId("approval-workflow-origin")).toContainText("item 3 of 4");
  await approvalPanel(page).getByRole("button", { name: "Reject" }).click();
  await expect(approvalPanel(page).getByTestId("approval-outcome")).toContainText("Rejected");
  await approvalPanel(page)
    .getByRole("link", { name: /^Its run / })
    .click();

  const panel = runPanel(page);
  await expect(panel.getByTestId("run-outcome")).toContainText("Stopped", { timeout: 20_000 });
  await expect(panel.getByTestId("run-outcome")).toContainText("the approval was rejected");
  const done = panel.getByTestId("run-node").nth(1);
  await expect(done.getByTestId("run-loop-summary")).toContainText(
    "4 rows · 1 succeeded · 1 skipped · 1 stopped · 1 not run",
  );
  await expect(done.getByTestId("run-iteration").nth(2)).toContainText(
    "Stopped: the approval was rejected; nothing was written.",
  );
  await expect(done.getByTestId("run-iteration")).toHaveCount(3);
  await screenshot(page, "workflow-decisions-run");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("grid", { name: "Runs" }).getByRole("row").nth(1)).toContainText("Stopped");
});
