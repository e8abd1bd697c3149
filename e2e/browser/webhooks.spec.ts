import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { test, expect, seed } from "../fixtures";
import { PASSWORD, screenshot, seedTeamWithPasswords, signIn } from "../support/browser";
import { sessionAs } from "../support/session";
import type { Page } from "@playwright/test";

// Settings → Webhooks end to end: the browser adds endpoints for real HTTP receivers on
// 127.0.0.1 (the run's server has WEBHOOK_ALLOW_PRIVATE_URLS=1 and retries after 0.3, 0.6,
// 1.2 and 2.4 s: e2e/global-setup.ts), and each receiver checks what arrives with the
// Standard Webhooks reference library, as an integrator's would.

type Hit = { headers: IncomingHttpHeaders; body: string };
type Receiver = { url: string; hits: Hit[]; stop: () => Promise<void> };

let receivers: Receiver[] = [];
test.afterEach(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  receivers = [];
});

/** An HTTP server on 127.0.0.1 (any free port) that records every request and answers `status` with `body`. */
async function receiver(status = 200, body = "ok"): Promise<Receiver> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      hits.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(status, { "content-type": "text/plain" }).end(body);
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  const r: Receiver = {
    url: `http://127.0.0.1:${port}/hooks/patchbay`,
    hits,
    stop: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
  receivers.push(r);
  return r;
}

/** Throws unless `secret` signed the request (the library also checks the timestamp is recent). */
function verify(secret: string, hit: Hit) {
  const header = (name: string) => String(hit.headers[name] ?? "");
  return new Webhook(secret).verify(hit.body, {
    "webhook-id": header("webhook-id"),
    "webhook-timestamp": header("webhook-timestamp"),
    "webhook-signature": header("webhook-signature"),
  }) as {
    id: string;
    type: string;
    team_id: string;
    data: Record<string, unknown>;
  };
}

/** Adds an endpoint through the dialog and returns the secret it showed (once). */
async function addEndpoint(page: Page, url: string, options: { description?: string; only?: string[] } = {}) {
  await page.getByRole("button", { name: "Add endpoint", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Add webhook endpoint" });
  await dialog.getByLabel("Endpoint URL").fill(url);
  if (options.description) await dialog.getByLabel("Description").fill(options.description);
  if (options.only) {
    await dialog.getByRole("button", { name: "Clear" }).click();
    await expect(dialog.getByRole("button", { name: "Add endpoint" })).toBeDisabled();
    for (const type of options.only) await dialog.getByRole("checkbox", { name: type, exact: true }).check();
  }
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  const shown = page.getByRole("dialog", { name: "Endpoint added: copy its signing secret" });
  await expect(shown.getByTestId("webhook-secret")).toContainText("shown only this once");
  const secret = (await shown.getByTestId("webhook-secret-value").textContent())!.trim();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  return { shown, secret };
}

const deliveryRows = (page: Page) =>
  page.getByRole("grid", { name: "Deliveries" }).getByRole("row").filter({ hasText: /msg_/ });
// The columns: time, event type, event id, status, attempts, last status code.
const ATTEMPTS = 4;
const LAST_STATUS = 5;

test("an owner adds an endpoint and sees its secret once, sends a test event the receiver verifies, resends it with the same webhook-id, and rotates the secret", async ({
  page,
  context,
}) => {
  const team = await seedTeamWithPasswords({ name: "Hooks Co" });
  const hook = await receiver(200, '{"received":true}');
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, team.users[0].email);
  await page.goto(`/${team.id}/settings/webhooks`);
  const section = page.getByRole("region", { name: "Webhooks" });
  await expect(section.getByTestId("no-webhook-endpoints")).toBeVisible();

  // An address the API refuses: its detail is shown in the dialog.
  await page.getByRole("button", { name: "Add endpoint", exact: true }).click();
  const form = page.getByRole("dialog", { name: "Add webhook endpoint" });
  await form.getByLabel("Endpoint URL").fill("ftp://example.com/hook");
  await form.getByRole("button", { name: "Add endpoint" }).click();
  await expect(form.getByRole("alert")).toContainText("http");
  await form.getByRole("button", { name: "Cancel" }).click();
  await expect(form).toBeHidden();

  const { shown, secret } = await addEndpoint(page, hook.url, { description: "Billing service" });
  await shown.getByRole("button", { name: "Copy" }).click();
  await expect(shown.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await screenshot(page, "webhooks-secret-once");
  // Shown once: gone when the dialog closes, not in the list, not after a reload, not when the dialog opens again.
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(shown).toBeHidden();
  await expect(page.getByTestId("webhook-secret")).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);
  const card = page.getByRole("listitem", { name: hook.url });
  await expect(card).toContainText("Billing service");
  await expect(card).toContainText("All events");
  await expect(card.getByTestId("endpoint-state")).toHaveText("Enabled");
  await page.reload();
  await expect(card).toBeVisible();
  expect(await page.content()).not.toContain(secret);
  await page.getByRole("button", { name: "Add endpoint", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Add webhook endpoint" }).getByLabel("Endpoint URL")).toHaveValue("");
  await page.getByRole("dialog", { name: "Add webhook endpoint" }).getByRole("button", { name: "Cancel" }).click();

  // Send test event: the log opens, the delivery succeeds with the receiver's 200.
  await card.getByRole("button", { name: "Send test event" }).click();
  await expect(card.getByRole("status")).toContainText("Test event msg_");
  const rows = deliveryRows(page);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("webhook.test");
  await expect(rows.first()).toContainText("succeeded", { timeout: 10_000 });
  await expect(rows.first().getByRole("gridcell").nth(LAST_STATUS)).toHaveText("200");
  await expect(rows.first().getByRole("gridcell").nth(ATTEMPTS)).toHaveText("1");
  expect(hook.hits).toHaveLength(1);
  const first = verify(secret, hook.hits[0]);
  expect(first).toMatchObject({ type: "webhook.test", team_id: team.id });
  expect(first.id).toBe(hook.hits[0].headers["webhook-id"]);
  await expect(rows.first()).toContainText(first.id);
  // Another key: its first character changed (to one it is not already: an "A" there made this pass 1 time in 64).
  const otherSecret = secret.replace(/^whsec_(.)/, (_, c: string) => `whsec_${c === "A" ? "B" : "A"}`);
  expect(() => verify(otherSecret, hook.hits[0])).toThrow();

  // The delivery in full: its attempt with the receiver's answer, and the payload.
  await rows.first().click();
  const detail = page.getByRole("dialog", { name: /^Delivery whd_/ });
  const attempts = detail.getByTestId("delivery-attempt");
  await expect(attempts).toHaveCount(1);
  await expect(attempts.first()).toContainText("Attempt 1");
  await expect(attempts.first()).toContainText("HTTP 200");
  await expect(attempts.first()).toContainText('{"received":true}');
  await expect(attempts.first()).toContainText(/\d+ ms/);
  await expect(detail.getByTestId("delivery-payload")).toContainText("webhook.test");
  await expect(detail.getByTestId("delivery-payload")).toContainText(first.id);
  await screenshot(page, "webhooks-delivery-detail");

  // Resend: a second delivery, and a second request carrying the same webhook-id.
  await detail.getByRole("button", { name: "Resend" }).click();
  await expect(detail.getByRole("status")).toContainText("Resent");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText("succeeded", { timeout: 10_000 });
  await expect.poll(() => hook.hits.length).toBe(2);
  expect(hook.hits[1].headers["webhook-id"]).toBe(first.id);
  expect(verify(secret, hook.hits[1])).toEqual(first);
  await detail.getByRole("button", { name: "Close delivery detail" }).click();
  await expect(detail).toBeHidden();

  // Rotate: the new secret is shown once; for 24 h each request verifies with either secret.
  await card.getByRole("button", { name: "Rotate secret" }).click();
  const rotate = page.getByRole("dialog", { name: "Rotate the signing secret?" });
  await expect(rotate).toContainText("24 hours");
  await rotate.getByRole("button", { name: "Rotate secret" }).click();
  const rotated = page.getByRole("dialog", { name: "New signing secret" });
  await expect(rotated).toContainText("The old secret keeps verifying for 24 hours");
  const newSecret = (await rotated.getByTestId("webhook-secret-value").textContent())!.trim();
  expect(newSecret).toMatch(/^whsec_/);
  expect(newSecret).not.toBe(secret);
  await rotated.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("webhook-secret")).toHaveCount(0);
  await expect(card).toContainText("the previous secret also signs until");
  await card.getByRole("button", { name: "Send test event" }).click();
  await expect(rows).toHaveCount(3);
  await expect.poll(() => hook.hits.length).toBe(3);
  expect(verify(newSecret, hook.hits[2]).type).toBe("webhook.test");
  expect(verify(secret, hook.hits[2]).type).toBe("webhook.test");

  // The log's filters: outcome and event type, in the URL.
  await section.getByLabel("Outcome").selectOption("failed");
  await expect(page).toHaveURL(/delivery_outcome=failed/);
  await expect(page.getByText("No deliveries match these filters")).toBeVisible();
  await section.getByLabel("Outcome").selectOption("succeeded");
  await expect(rows).toHaveCount(3);
  await section.getByLabel("Event type", { exact: true }).selectOption("credits.low");
  await expect(page.getByText("No deliveries match these filters")).toBeVisible();
  await section.getByRole("button", { name: "Clear filters" }).click();
  await expect(rows).toHaveCount(3);
  await screenshot(page, "webhooks-section");

  // The low-credits threshold is saved for the team.
  const threshold = page.getByRole("region", { name: "Low-credits alert" }).getByLabel("Low-credits threshold");
  await expect(threshold).toHaveValue("10");
  await threshold.fill("25");
  await page.getByRole("button", { name: "Save threshold" }).click();
  await expect(page.getByText("Saved: credits.low fires at 25 % or less.")).toBeVisible();
  const settings = await page.request.get("/api/dashboard/team", { headers: { "x-patchbay-team": team.id } });
  expect(await settings.json()).toEqual({ low_credits_percent: 25, forbid_self_approval: false });

  // Disabled by hand: no shell banner (that is for endpoints the failures disabled); then deleted.
  // The switch follows the stored state: it flips once the server has answered.
  await card.getByRole("switch", { name: `Deliver to ${hook.url}` }).click();
  await expect(card.getByRole("switch", { name: `Deliver to ${hook.url}` })).not.toBeChecked();
  await expect(card.getByTestId("endpoint-state")).toHaveText("Disabled");
  await expect(card).toContainText("Disabled: Disabled by a team owner.");
  await page.goto(`/${team.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByTestId("disabled-webhooks-banner")).toHaveCount(0);
  await page.goto(`/${team.id}/settings/webhooks`);
  await card.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete this webhook endpoint?" });
  await expect(confirm).toContainText(hook.url);
  await confirm.getByRole("button", { name: "Delete endpoint" }).click();
  await expect(confirm).toBeHidden();
  await expect(section.getByTestId("no-webhook-endpoints")).toBeVisible();
});

test("a receiver answering 500: the delivery shows the status and body, is retried until it fails, and once failures disable the endpoint every page says so", async ({
  page,
}) => {
  const team = await seedTeamWithPasswords({ name: "Failing Hooks Co" });
  const hook = await receiver(500, "database is down");
  await signIn(page, team.users[0].email);
  await page.goto(`/${team.id}/settings/webhooks`);

  const { shown } = await addEndpoint(page, hook.url, { only: ["credits.low", "credits.exhausted"] });
  await shown.getByRole("button", { name: "Done" }).click();
  const card = page.getByRole("listitem", { name: hook.url });
  await expect(card.getByRole("list", { name: `Event types ${hook.url} receives` }).getByRole("listitem")).toHaveText([
    "credits.low",
    "credits.exhausted",
  ]);

  // Edit: one more type, and a description.
  await card.getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: "Edit webhook endpoint" });
  await expect(edit.getByRole("checkbox", { name: "credits.low", exact: true })).toBeChecked();
  await expect(edit.getByRole("checkbox", { name: "connection.created", exact: true })).not.toBeChecked();
  await edit.getByRole("checkbox", { name: "connection.created", exact: true }).check();
  await edit.getByLabel("Description").fill("Flaky receiver");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit).toBeHidden();
  await expect(card).toContainText("Flaky receiver");
  await expect(card.getByRole("list", { name: `Event types ${hook.url} receives` }).getByRole("listitem")).toHaveText([
    "connection.created",
    "credits.low",
    "credits.exhausted",
  ]);

  // The test event reaches the endpoint whatever it subscribes to; every attempt gets the 500.
  await card.getByRole("button", { name: "Send test event" }).click();
  const row = deliveryRows(page).first();
  await expect(row.getByRole("gridcell").nth(LAST_STATUS)).toHaveText("500", { timeout: 10_000 });
  await expect(row).toContainText(/pending|delivering|failed/);
  await row.click();
  const detail = page.getByRole("dialog", { name: /^Delivery whd_/ });
  await expect(detail.getByTestId("delivery-attempt").first()).toContainText("HTTP 500");
  await expect(detail.getByTestId("delivery-attempt").first()).toContainText("database is down");
  // 1 attempt + 4 retries (0.3 … 2.4 s, up to 20 % longer), then failed for good.
  await expect(row).toContainText("failed", { timeout: 15_000 });
  await expect(row.getByRole("gridcell").nth(ATTEMPTS)).toHaveText("5");
  await expect(detail.getByTestId("delivery-attempt")).toHaveCount(5);
  await expect(detail).toContainText("Gave up");
  expect(hook.hits).toHaveLength(5);
  await expect(card).toContainText("Failing since");
  await screenshot(page, "webhooks-failed-delivery");
  await detail.getByRole("button", { name: "Close delivery detail" }).click();

  // Failing for 3 days (backdated): the next failed attempt disables it, and the shell says so on every page.
  const endpointId = await card.getAttribute("data-endpoint-id");
  await seed("webhookFailingSince", { endpoint: endpointId, msAgo: 3 * 86_400_000 + 60_000 });
  await card.getByRole("button", { name: "Send test event" }).click();
  await expect.poll(() => hook.hits.length, { timeout: 10_000 }).toBe(6);
  const headers = { "x-patchbay-team": team.id };
  await expect
    .poll(
      async () => (await (await page.request.get(`/api/dashboard/webhooks/${endpointId}`, { headers })).json()).enabled,
    )
    .toBe(false);
  await page.goto(`/${team.id}/logs`);
  const banner = page.getByTestId("disabled-webhooks-banner");
  await expect(banner).toContainText(`Webhook endpoint ${hook.url} was disabled after 3 days of failed deliveries`);
  await screenshot(page, "webhooks-disabled-banner");
  await banner.getByRole("link", { name: "Review it in Settings → Webhooks" }).click();
  await expect(page).toHaveURL(new RegExp(`/${team.id}/settings/webhooks\\?webhook=${endpointId}`));
  await expect(card.getByTestId("endpoint-state")).toHaveText("Disabled");
  await expect(card).toContainText("3 days");
  await expect(page.getByRole("heading", { name: `Delivery log of ${hook.url}` })).toBeVisible();
  await expect(page.getByText("Endpoint disabled: pending deliveries wait until it is enabled.")).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "webhooks-disabled-390");
  await page.setViewportSize({ width: 1280, height: 800 });
  // Turned on again: the banner goes.
  await card.getByRole("switch", { name: `Deliver to ${hook.url}` }).click();
  await expect(card.getByRole("switch", { name: `Deliver to ${hook.url}` })).toBeChecked();
  await expect(card.getByTestId("endpoint-state")).toHaveText("Enabled");
  await expect(banner).toHaveCount(0);
});

test("a member sees that only owners manage webhooks, reads the low-credits threshold, and gets no banner even when failures disabled an endpoint", async ({
  page,
}) => {
  const team = await seedTeamWithPasswords({ name: "Hooks Members Co", members: 2 });
  const [owner, member] = team.users;
  const hook = await receiver(500, "nope");
  const owners = await sessionAs(owner.email, PASSWORD, team.id);
  const created = await owners.post("/api/dashboard/webhooks", { data: { url: hook.url } });
  expect(created.status(), await created.text()).toBe(200);
  const { id } = await created.json();
  await seed("webhookFailingSince", { endpoint: id, msAgo: 3 * 86_400_000 + 60_000 });
  expect((await owners.post(`/api/dashboard/webhooks/${id}/test`)).status()).toBe(200);
  await expect
    .poll(async () => (await (await owners.get(`/api/dashboard/webhooks/${id}`)).json()).enabled, { timeout: 10_000 })
    .toBe(false);

  await signIn(page, member.email);
  await page.goto(`/${team.id}/settings/webhooks`);
  await expect(page.getByTestId("webhooks-owner-notice")).toContainText("Only team owners manage webhooks");
  await expect(page.getByRole("button", { name: "Add endpoint" })).toHaveCount(0);
  await expect(page.getByTestId("low-credits-percent")).toHaveText("10 %");
  await expect(page.getByLabel("Low-credits threshold")).toHaveCount(0);
  await expect(page.getByTestId("disabled-webhooks-banner")).toHaveCount(0);
  const headers = { "x-patchbay-team": team.id };
  expect((await page.request.get("/api/dashboard/webhooks", { headers })).status()).toBe(403);
  expect(
    (await page.request.patch("/api/dashboard/team", { headers, data: { low_credits_percent: 50 } })).status(),
  ).toBe(403);
});

test("the delivery log is virtualized: a long history pages in as it scrolls, with only the rows in view in the page", async ({
  page,
}) => {
  const team = await seedTeamWithPasswords({ name: "Busy Hooks Co" });
  const hook = await receiver();
  const owners = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const { id } = await (await owners.post("/api/dashboard/webhooks", { data: { url: hook.url } })).json();
  const total = 130;
  for (let i = 0; i < total; i++) expect((await owners.post(`/api/dashboard/webhooks/${id}/test`)).status()).toBe(200);
  await expect.poll(() => hook.hits.length, { timeout: 20_000 }).toBe(total);

  await signIn(page, team.users[0].email);
  await page.goto(`/${team.id}/settings/webhooks?webhook=${id}`);
  await expect(deliveryRows(page).first()).toContainText("succeeded");
  const inDom = await deliveryRows(page).count();
  expect(inDom).toBeLessThan(40);
  // Scrolled to the end again and again: the next pages arrive (50 a page) until the last.
  const scroller = page.getByTestId("data-table-scroll");
  const end = scroller.getByTestId("end-of-list");
  await expect(async () => {
    await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect(end).toContainText(`${total} rows`, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  expect(await deliveryRows(page).count()).toBeLessThan(40);
});
