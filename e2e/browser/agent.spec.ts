import { join } from "node:path";
import type { Page } from "@playwright/test";
import { test, expect, apiAs } from "../fixtures";
import { screenshot, screenshotsDir, seedTeamWithPasswords, signIn } from "../support/browser";

// The Agent page (CONTRACT §11) in the browser, on the sandbox model (a model inside Patchbay with
// a fixed script): a report's answer streamed in with its operation; a note whose write waits for
// approval in place, approved there, and the agent's continued answer; a member who may not
// approve told why; the list, its badges and its search; and the approval flow at 390 px.

const nav = (page: Page) => page.getByRole("navigation", { name: "Sections" });
const thread = (page: Page) => page.getByRole("list", { name: "Conversation" });
const turns = (page: Page) => thread(page).getByTestId("agent-turn");

/** The screen as a person sees it at the end of the conversation: scrolled down, the composer at the bottom. */
async function screenshotOfEnd(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight }));
  await page.screenshot({ path: join(screenshotsDir, `${name}.png`) });
}

/** A team with a sandbox_key connection for the agent to use and a sandbox_model connection to talk to. */
async function teamWithSandbox(name: string) {
  const team = await seedTeamWithPasswords({ name, members: 2 });
  const api = await apiAs(team.users[0]);
  const made = async (connection_type: string, label: string, credentials: Record<string, string>) => {
    const res = await api.post("/v1/connections", { data: { connection_type, name: label, credentials } });
    expect(res.status(), await res.text()).toBe(200);
    return ((await res.json()) as { id: string }).id;
  };
  const notes = await made("sandbox_key", "Notes account", { api_key: `sk-${name.replace(/\W/g, "")}-${Date.now()}` });
  const model = await made("sandbox_model", "Script model", {});
  return { team, api, notes, model };
}

/** Sends the first message from the New conversation form; resolves once the conversation's own page shows. */
async function startConversation(page: Page, teamId: string, message: string) {
  await page.getByLabel("First message").fill(message);
  const posted = page.waitForResponse(
    (r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/v1/agent/conversations",
  );
  await page.getByRole("button", { name: "Start conversation" }).click();
  // The reply is read as Server-Sent Events, not waited for as one JSON body.
  const res = await posted;
  expect(res.status()).toBe(201);
  expect(res.headers()["content-type"]).toContain("text/event-stream");
  await expect(page).toHaveURL(new RegExp(`/${teamId}/agent/conv_[A-Za-z0-9_-]+$`));
}

test("a report streams in with its step; a note's write is approved in place and the agent carries on", async ({
  page,
}) => {
  const { team, api } = await teamWithSandbox("Agent Co");
  await signIn(page, team.users[0].email);

  // The empty list says what the agent is and how to start.
  await nav(page).getByRole("link", { name: "Agent" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Agent" })).toBeVisible();
  await expect(page.getByText("No conversations yet")).toBeVisible();
  await page.getByRole("link", { name: "New conversation" }).click();

  // The form: the model connection, the default model as the placeholder, every connection picked.
  await expect(page.getByRole("heading", { level: 1, name: "New conversation" })).toBeVisible();
  await expect(page.getByLabel("Model connection").locator("option")).toHaveText(["Script model (Sandbox model)"]);
  await expect(page.getByRole("textbox", { name: "Model (optional)" })).toHaveAttribute(
    "placeholder",
    "sandbox-script-1",
  );
  const picker = page.getByRole("group", { name: "Connections it may use" });
  await expect(
    picker.getByRole("group", { name: "Sandbox" }).getByRole("checkbox", { name: /Notes account/ }),
  ).toBeChecked();
  await expect(page.getByTestId("picked-connections")).toHaveText(/^Your one connection/);
  await expect(page.getByRole("switch", { name: "Share with the team" })).not.toBeChecked();
  await screenshot(page, "agent-new-conversation");

  await startConversation(page, team.id, "report please");
  await expect(page.getByRole("heading", { level: 1, name: "report please" })).toBeVisible();
  const first = turns(page).first();
  await expect(first).toHaveAttribute("data-status", "completed");
  await expect(first.getByTestId("agent-message")).toHaveText("Message: report please");
  const step = first.getByTestId("agent-step");
  await expect(step).toContainText("sandbox.report");
  await expect(step).toContainText("on Notes account");
  await expect(step).toContainText("Succeeded");
  // The answer holds the report's total, as its log recorded it; the log is one click away.
  const logHref = await step.getByRole("link", { name: "Log of sandbox.report" }).getAttribute("href");
  const logId = new URL(logHref!, "http://x").searchParams.get("log")!;
  const log = (await (await api.get(`/v1/logs/${logId}`)).json()) as {
    output: { total: number };
    credits_used: number;
  };
  await expect(first.getByTestId("agent-reply")).toHaveText(
    `The sandbox account had ${log.output.total} sessions over the last 7 days.`,
  );
  const credits = 1 + log.credits_used;
  await expect(first.getByTestId("agent-turn-usage")).toContainText(`${credits} credit${credits === 1 ? "" : "s"}`);
  await expect(first.getByTestId("agent-turn-usage")).toContainText(/\d+ tokens in, \d+ out · 3 model calls/);

  // A note: the write waits in place, and nothing more can be sent until it is decided.
  const composer = page.getByLabel("Your message");
  await composer.fill("note: Launch on Monday");
  await composer.press("Enter");
  const second = turns(page).nth(1);
  const card = second.getByTestId("agent-approval");
  await expect(card.getByRole("heading", { name: "The agent asks to write" })).toBeVisible();
  await expect(card.getByTestId("agent-approval-summary")).toContainText("Launch on Monday");
  await expect(card).toContainText("sandbox.set_note on Notes account");
  await expect(card).toContainText("Pending");
  await expect(card.locator("summary").first()).toHaveText("What it would write");
  await expect(composer).toBeDisabled();
  await expect(page.getByTestId("composer-status")).toContainText("A write above waits for a person");
  await expect(page.getByRole("button", { name: "Send" })).toBeDisabled();
  await screenshotOfEnd(page, "agent-approval-desktop");

  // By keyboard: the decision, then the focus on what became of it (the buttons are gone).
  await card.getByRole("button", { name: "Approve and run" }).focus();
  await page.keyboard.press("Enter");
  const outcome = card.getByTestId("agent-approval-outcome");
  await expect(outcome).toHaveText(`Approved by ${team.users[0].email}; the write ran. Its log`);
  await expect(outcome).toBeFocused();
  // Once it ran, the card says what it wrote, not what it would write.
  await expect(card.locator("summary").first()).toHaveText("What it wrote");
  await expect(second).toHaveAttribute("data-status", "completed", { timeout: 20_000 });
  await expect(second.getByTestId("agent-reply")).toHaveText(
    "Saved the note “Launch on Monday” on the sandbox account.",
  );
  await expect(composer).toBeEnabled();
  await screenshotOfEnd(page, "agent-approved-desktop");

  // The list: the member's own conversation, found by a word of a later message.
  await page.getByRole("link", { name: "← Agent" }).click();
  const list = page.getByRole("list", { name: "Conversations" });
  await expect(list.getByRole("link")).toHaveCount(1);
  await expect(list.getByRole("link").first()).toContainText("report please");
  await expect(list.getByRole("link").first()).toContainText("Yours");
  await screenshot(page, "agent-list");
  await page.getByLabel("Search").fill("Monday");
  await expect(page).toHaveURL(/\?q=Monday/);
  await expect(list.getByRole("link")).toHaveCount(1);
  await page.getByLabel("Search").fill("quarterly");
  await expect(page.getByText("No conversation mentions “quarterly”")).toBeVisible();
});

test("a member who may not approve their own request is told why, and a rejection reaches the agent", async ({
  page,
}) => {
  const { team } = await teamWithSandbox("Four Eyes Co");
  await signIn(page, team.users[0].email);
  const set = await page.request.patch("/api/dashboard/team", {
    headers: { "x-patchbay-team": team.id },
    data: { forbid_self_approval: true },
  });
  expect(set.status(), await set.text()).toBe(200);

  await page.goto(`/${team.id}/agent/new`);
  await startConversation(page, team.id, "note: Freeze the budget");
  const card = turns(page).first().getByTestId("agent-approval");
  await expect(card.getByTestId("agent-approval-reason")).toContainText(
    "this team requires another member to approve a request",
  );
  await expect(card.getByRole("button", { name: "Approve and run" })).toBeDisabled();
  await card.getByRole("button", { name: "Reject" }).click();
  await expect(card.getByTestId("agent-approval-outcome")).toContainText("nothing was written");
  const turn = turns(page).first();
  await expect(turn).toHaveAttribute("data-status", "completed", { timeout: 20_000 });
  await expect(turn.getByTestId("agent-reply")).toContainText("The note was not saved");
  await expect(card).toContainText("Rejected");
  await expect(card.locator("summary").first()).toHaveText("What it would have written");
});

test("at 390 px: the approval flow fits the screen", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { team } = await teamWithSandbox("Pocket Agent Co");
  await signIn(page, team.users[0].email);
  // A click on Menu before the page has hydrated opens nothing (CI's loaded runs met it): click until it opens.
  await expect(async () => {
    await page.getByRole("button", { name: "Menu" }).click();
    await expect(nav(page).getByRole("link", { name: "Agent" })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await nav(page).getByRole("link", { name: "Agent" }).click();
  await page.getByRole("link", { name: "New conversation" }).click();
  await startConversation(page, team.id, "note: Launch on Monday");

  const turn = turns(page).first();
  const card = turn.getByTestId("agent-approval");
  await expect(card.getByTestId("agent-approval-summary")).toContainText("Launch on Monday");
  await expect(page.getByLabel("Your message")).toBeDisabled();
  // Nothing wider than the screen: no sideways scrolling of the page.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshotOfEnd(page, "agent-approval-390");

  await card.getByRole("button", { name: "Approve and run" }).click();
  await expect(turn).toHaveAttribute("data-status", "completed", { timeout: 20_000 });
  await expect(turn.getByTestId("agent-reply")).toHaveText("Saved the note “Launch on Monday” on the sandbox account.");
  await expect(page.getByLabel("Your message")).toBeEnabled();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshotOfEnd(page, "agent-approved-390");
});
