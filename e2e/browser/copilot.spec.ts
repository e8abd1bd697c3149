import { test, expect, apiAs } from "../fixtures";
import { screenshot, seedTeamWithPasswords, signIn } from "../support/browser";

// Issue 36 part 3 in the browser: the new-workflow editor's Copilot on the sandbox model, its
// draft shown as what it changes, applied to the editor, saved as usual.

test("ask the sandbox Copilot, see the draft as a diff, apply it, save the workflow", async ({ page }) => {
  const team = await seedTeamWithPasswords({ name: "Copilot Co" });
  const api = await apiAs(team.users[0]);
  for (const data of [
    { connection_type: "sandbox_model", name: "Sandbox model", credentials: {} },
    { connection_type: "sandbox_key", name: "Notes account", credentials: { api_key: `sk-copilot-ui-${Date.now()}` } },
  ]) {
    const res = await api.post("/v1/connections", { data });
    expect(res.status(), await res.text()).toBe(200);
  }
  await signIn(page, team.users[0].email);
  await page.goto(`/${team.id}/workflows/new`);

  const copilot = page.getByRole("region", { name: "Copilot" });
  await expect(copilot.getByLabel("Model connection")).toHaveValue(/^conn_/);
  const message = "Every day, report the sessions of the sandbox";
  // By keyboard: type the message, Ctrl+Enter sends it.
  await copilot.getByLabel("Describe what you want").fill(message);
  await copilot.getByLabel("Describe what you want").press("Control+Enter");

  // Named for what it does; not switched on, since the message did not ask for it.
  const name = "Daily sessions report";
  await expect(copilot.getByText(`Here is a draft: “${name}”`)).toBeVisible();
  const diff = copilot.getByRole("list", { name: "What the draft changes" });
  await expect(diff).toContainText(`Name: “${name}”`);
  await expect(diff).toContainText("Node report · Sessions report (sandbox.report) on Notes account");
  await expect(diff).toContainText("Schedule: run by hand → Every day at 09:00 (UTC)");
  await expect(diff).toContainText("Active: yes → no");
  await screenshot(page, "copilot-diff");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(diff).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, "copilot-diff-390");
  await page.setViewportSize({ width: 1280, height: 800 });

  await copilot.getByRole("button", { name: "Apply to editor" }).click();
  await expect(copilot.getByText("The draft is in the editor: review it and save.")).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name);
  await expect(page.getByLabel("Name", { exact: true })).toBeFocused();
  await expect(page.getByRole("switch", { name: "Active" })).not.toBeChecked();
  await page.getByRole("button", { name: "Save workflow" }).click();

  await expect(page).toHaveURL(new RegExp(`/${team.id}/workflows/wf_[A-Za-z0-9]+$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  const workflowId = page.url().split("/").pop()!;
  const saved = (await (await api.get(`/v1/credits/logs?limit=10`)).json()).data as {
    service: { type: string; id: string | null };
  }[];
  expect(saved.filter((e) => e.service.type === "copilot")).toEqual([
    expect.objectContaining({ service: expect.objectContaining({ type: "copilot", id: null }) }),
  ]);
  expect(workflowId).toMatch(/^wf_/);
});
