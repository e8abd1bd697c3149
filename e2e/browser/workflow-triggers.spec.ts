import type { Page } from "@playwright/test";
import { test, expect } from "../fixtures";
import { screenshot, seedTeamWithPasswords, signIn } from "../support/browser";
import { waitForRun } from "../support/runs";

// Workflows that react and recover (CONTRACT §13, rows triggers, webhook trigger, replay and
// versions) in the browser: an owner builds a webhook workflow in the editor and sees its URL
// once, a POST to it starts a run whose trigger and body the run view shows; Rotate URL makes the
// old URL 404; a run that fails (its body's rows are not a list) gets Retry from this step, whose
// replay takes the first node's output from the original and links back to it; an edit is version
// 2, History shows what restoring version 1 changes, and Restore makes version 3.

const runPanel = (page: Page) => page.getByRole("dialog", { name: /^Run / });
const runsGrid = (page: Page) => page.getByRole("grid", { name: "Runs" });

/** The runs list moves only while a run it shows is underway: a run started from outside needs a reload. */
async function openNewestRun(page: Page, runId: string) {
  await page.reload();
  const row = runsGrid(page).getByRole("row").nth(1);
  await expect(row).toBeVisible();
  await row.click();
  await expect(runPanel(page)).toContainText(runId);
}

test("a webhook workflow: its URL once, a POST's run and body, Rotate URL, Retry from this step, History and Restore", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const team = await seedTeamWithPasswords({ name: "Triggers Co" });
  const [owner] = team.users;
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, owner.email, undefined, `/${team.id}/workflows/new`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("New workflow");
  await page.getByLabel("Name").fill("Paid orders hook");

  const greet = page.getByRole("group", { name: /^Node 1/ });
  await greet.getByLabel("Label").fill("Greet");
  await greet.getByRole("combobox", { name: "Operation" }).selectOption("utility.format_text");
  await greet.getByLabel("template", { exact: true }).fill("Order {{trigger.body.order_id}}");
  await page.getByRole("button", { name: "Add a node" }).click();
  const pick = page.getByRole("group", { name: /^Node 2/ });
  await pick.getByLabel("Label").fill("Paid orders");
  await pick.getByRole("combobox", { name: "Operation" }).selectOption("utility.filter_rows");
  await pick.getByLabel("rows", { exact: true }).fill("{{trigger.body.rows}}");
  await pick.getByLabel("field", { exact: true }).fill("status");
  await pick.getByLabel("equals", { exact: true }).fill('"paid"');

  // The trigger picker: Events lists the catalogue with what each type means.
  await page.getByLabel("Events", { exact: true }).check();
  await expect(page.getByTestId("trigger-events")).toContainText("connection.needs_reauth");
  await expect(page.getByTestId("trigger-events")).toContainText("The provider refused a connection's access");
  await page.getByLabel("Webhook", { exact: true }).check();
  await expect(page.getByTestId("webhook-help")).toContainText("shown once");
  await screenshot(page, "workflow-triggers-editor");
  await page.getByRole("button", { name: "Save workflow" }).click();

  // The URL, once, with a curl example.
  const shown = page.getByRole("dialog", { name: "Saved: its webhook URL" });
  await expect(shown).toContainText("it will not be shown again");
  const url = await shown.getByLabel("Webhook URL").inputValue();
  expect(url).toMatch(/\/hooks\/workflows\/pbwh_[A-Za-z0-9_-]{20,}$/);
  await expect(shown.getByTestId("webhook-curl")).toContainText(`curl -X POST '${url}'`);
  await expect(shown.getByTestId("webhook-curl")).toContainText("Idempotency-Key");
  await screenshot(page, "workflow-triggers-url");
  await shown.getByRole("button", { name: "I have copied it: open the workflow" }).click();
  await expect(page).toHaveURL(new RegExp(`/${team.id}/workflows/wf_[A-Za-z0-9]+$`));
  await expect(page.getByTestId("workflow-schedule")).toContainText("Webhook: a POST to its URL starts a run");
  await expect(page.getByTestId("workflow-version")).toContainText("version 1");

  // A POST starts a run; the same Idempotency-Key starts nothing more.
  const post = await request.post(url, {
    data: { order_id: 1042, rows: [{ status: "paid" }, { status: "open" }] },
    headers: { "Idempotency-Key": "order-1042" },
  });
  expect(post.status(), await post.text()).toBe(202);
  const { run_id: firstRun } = (await post.json()) as { run_id: string };
  const again = await request.post(url, { data: { order_id: 1042 }, headers: { "Idempotency-Key": "order-1042" } });
  expect(((await again.json()) as { run_id: string }).run_id).toBe(firstRun);
  expect((await waitForRun(firstRun)).status).toBe("success");

  await openNewestRun(page, firstRun);
  await expect(runsGrid(page).getByRole("row").nth(1).getByTestId("run-trigger")).toContainText("Webhook");
  await expect(runsGrid(page).getByRole("row").nth(1).getByTestId("run-trigger")).toContainText("version 1");
  await expect(runPanel(page).getByTestId("run-detail-trigger")).toContainText("Webhook · version 1");
  const body = runPanel(page).getByTestId("run-trigger-data");
  await body.getByText("What started it: the webhook's body").click();
  await expect(body).toContainText("1042");
  await expect(body).toContainText('"open"');
  await screenshot(page, "workflow-triggers-run");
  await runPanel(page).getByRole("button", { name: "Close run detail" }).click();

  // Rotate URL: confirmed, the new URL shown once, the old one 404 at once.
  await page.getByRole("button", { name: "Rotate URL" }).click();
  const confirm = page.getByRole("dialog", { name: "Rotate the webhook URL?" });
  await expect(confirm).toContainText("answers 404 at once");
  await confirm.getByRole("button", { name: "Rotate URL" }).click();
  const rotated = page.getByRole("dialog", { name: "The new webhook URL" });
  await expect(rotated).toContainText("it will not be shown again");
  const newUrl = await rotated.getByLabel("Webhook URL").inputValue();
  expect(newUrl).not.toBe(url);
  await rotated.getByRole("button", { name: "Done" }).click();
  expect((await request.post(url, { data: { order_id: 1 } })).status()).toBe(404);

  // A body whose rows are not a list fails the second node.
  const bad = await request.post(newUrl, { data: { order_id: 7, rows: "nope" } });
  expect(bad.status(), await bad.text()).toBe(202);
  const { run_id: failedRun } = (await bad.json()) as { run_id: string };
  expect((await waitForRun(failedRun)).status).toBe("error");
  await openNewestRun(page, failedRun);
  await expect(runPanel(page).getByTestId("run-outcome")).toContainText("Failed");
  const failedNode = runPanel(page).getByTestId("run-node").nth(1);
  await failedNode.getByRole("button", { name: "Retry from this step: Paid orders" }).click();
  const retry = page.getByRole("dialog", { name: "Retry from “Paid orders”?" });
  await expect(retry).toContainText("Writes already done are not sent again.");
  await screenshot(page, "workflow-triggers-retry");
  await retry.getByRole("button", { name: "Retry from this step" }).click();

  // The replay opens: it took node 1's output from the original, and links back to it.
  await expect(runPanel(page).getByTestId("run-detail-trigger")).toContainText(`Replay of ${failedRun}`);
  await expect(page).not.toHaveURL(new RegExp(`run=${failedRun}`));
  const replayId = new URL(page.url()).searchParams.get("run")!;
  await waitForRun(replayId);
  const taken = runPanel(page).getByTestId("run-node-replayed");
  await expect(taken).toHaveCount(1);
  await expect(taken).toContainText("Greet");
  await expect(taken).toContainText(`from ${failedRun}`);
  await expect(runPanel(page).getByTestId("run-node")).toHaveCount(1);
  await expect(runPanel(page).getByTestId("run-node").first()).toContainText("Paid orders");
  await screenshot(page, "workflow-triggers-replay");
  await runPanel(page).getByTestId("run-detail-trigger").getByRole("link", { name: failedRun }).click();
  await expect(runPanel(page)).toContainText(failedRun);
  await expect(runPanel(page).getByTestId("run-replayed-by")).toContainText(replayId);
  // Replayed once: no second Retry offered.
  await expect(runPanel(page).getByTestId("retry-from-step")).toHaveCount(0);
  await runPanel(page).getByRole("button", { name: "Close run detail" }).click();

  // Replay failed runs…: the original was replayed already; the replay (it failed too) is replayed now.
  await page.getByRole("button", { name: "Replay failed runs…" }).click();
  const bulk = page.getByRole("dialog", { name: "Replay failed runs" });
  await bulk.getByLabel("Last 7 days").check();
  await bulk.getByRole("button", { name: "Replay failed runs" }).click();
  await expect(bulk.getByTestId("bulk-replay-result")).toContainText(/replayed/);
  await screenshot(page, "workflow-triggers-bulk");
  await bulk.getByRole("button", { name: "Done" }).click();

  // Versions: an edit is version 2; History shows what restoring version 1 changes; Restore is version 3.
  await page.getByRole("link", { name: "Edit", exact: true }).click();
  await expect(page.getByLabel("Webhook", { exact: true })).toBeChecked();
  const editGreet = page.getByRole("group", { name: /^Node 1/ });
  await editGreet.getByLabel("template", { exact: true }).fill("Paid order {{trigger.body.order_id}}");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page).toHaveURL(new RegExp(`/${team.id}/workflows/wf_[A-Za-z0-9]+$`));
  await expect(page.getByTestId("workflow-version")).toContainText("version 2");

  const history = page.getByRole("region", { name: "History", exact: true });
  await expect(history.getByTestId("workflow-version-row")).toHaveCount(2);
  await history.getByRole("button", { name: "View version 1" }).click();
  const version = page.getByRole("dialog", { name: "Version 1" });
  await expect(version).toContainText("What restoring it changes in the current version (2)");
  await expect(version.getByTestId("version-diff")).toContainText("Node node_1 (Greet) changes");
  await expect(version.getByTestId("version-diff")).toContainText(
    'input.template: "Paid order {{trigger.body.order_id}}" → "Order {{trigger.body.order_id}}"',
  );
  await screenshot(page, "workflow-triggers-history");
  await version.getByRole("button", { name: "Restore…" }).click();
  await version.getByRole("button", { name: "Restore version 1" }).click();
  await expect(page.getByTestId("version-restored")).toHaveText("Version 1 was restored as version 3.");
  await expect(page.getByTestId("workflow-version")).toContainText("version 3");
  await expect(history.getByTestId("workflow-version-row")).toHaveCount(3);

  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "workflow-triggers-page-390");
});
