import type { Page } from "@playwright/test";
import { join } from "node:path";
import { test, expect, anonymous, apiAs, baseURL, seedTeam } from "../fixtures";
import { screenshotsDir } from "../support/browser";

// /docs/api is Scalar rendering the live /v1/openapi.json in the browser: every operation is
// there, a reader can send a request with their own API key to this server, each operation
// shows curl, Python requests and @patchbay/client samples, and the page runs under the
// product's CSP without loading anything from another origin.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * What the page does that it should not: CSP violations (reported by the securitypolicyviolation
 * event, as in content-security-policy.spec.ts), console errors, and requests to other origins.
 */
async function watch(page: Page) {
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const w = window as unknown as { __csp?: string[] };
      (w.__csp ??= []).push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  const requests: string[] = [];
  const consoleErrors: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(m.text());
  });
  page.on("pageerror", (e) => consoleErrors.push(`page error: ${e.message}`));
  const origin = new URL(baseURL()).origin;
  return {
    requests,
    async expectClean() {
      await page.waitForLoadState("networkidle");
      expect(
        await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []),
        "CSP violations",
      ).toEqual([]);
      expect(consoleErrors, "console errors").toEqual([]);
      expect(
        requests.filter((url) => !/^(data|blob):/.test(url) && new URL(url).origin !== origin),
        "requests to other origins",
      ).toEqual([]);
    },
  };
}

async function liveDocument(): Promise<Json> {
  const res = await (await anonymous()).get("/v1/openapi.json");
  expect(res.status()).toBe(200);
  return res.json();
}

const operationsOf = (doc: Json): Json[] =>
  Object.entries(doc.paths as Json).flatMap(([path, methods]) =>
    Object.entries(methods as Json).map(([method, op]) => ({ ...(op as Json), method, path })),
  );

/** Opens an operation the way a reader does: its tag's group in the sidebar, then its entry. */
async function openOperation(page: Page, doc: Json, op: Json) {
  const sidebar = page.getByRole("complementary", { name: `Sidebar for ${doc.info.title}` });
  // Once the tag's entry shows, its group button does too (open or closed, as Scalar left it).
  await expect(sidebar.getByRole("link", { name: op.tags[0], exact: true })).toBeVisible();
  const openGroup = sidebar.getByRole("button", { name: `Open Group - ${op.tags[0]}` });
  if (await openGroup.isVisible()) await openGroup.click();
  await sidebar.getByRole("link", { name: new RegExp(`^${escape(op.summary)} HTTP Method`) }).click();
  const section = page.getByRole("region", { name: op.summary, exact: true });
  await expect(section.getByRole("heading", { name: op.summary, exact: true })).toBeVisible();
  return section;
}

test("renders every operation of the live document, from this server only, with no CSP violation or console error", async ({
  page,
}) => {
  const watcher = await watch(page);
  const doc = await liveDocument();
  await page.goto("/docs/api");

  // The page's own header: the raw document and the webhooks catalogue beside the reference.
  const header = page.getByRole("banner");
  for (const text of [doc.info.title, `v${doc.info.version}`, baseURL()]) await expect(header).toContainText(text);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(doc.info.title);
  await expect(header.getByRole("link", { name: "openapi.json" })).toHaveAttribute("href", "/v1/openapi.json");
  await expect(header.getByRole("link", { name: "Webhooks guide" })).toHaveAttribute("href", "/docs/webhooks");

  const operations = operationsOf(doc);
  expect(operations.length).toBeGreaterThan(10);
  for (const op of operations) await openOperation(page, doc, op);
  await page.screenshot({ path: join(screenshotsDir, "api-reference-operations.png") });

  // The webhook catalogue is in the same document: each event, its headers and its body.
  const events = Object.keys(doc.webhooks);
  expect(events).toContain("auth_link.connected");
  const sidebar = page.getByRole("complementary", { name: `Sidebar for ${doc.info.title}` });
  const openWebhooks = sidebar.getByRole("button", { name: "Open Group - Webhooks" });
  if (await openWebhooks.isVisible()) await openWebhooks.click();
  for (const event of events)
    await expect(sidebar.getByRole("link", { name: new RegExp(`^${escape(event)}\\b`) })).toBeVisible();
  await sidebar.getByRole("link", { name: /^auth_link\.connected\b/ }).click();
  const hook = page.getByRole("region", { name: "auth_link.connected", exact: true });
  for (const header of ["webhook-id", "webhook-timestamp", "webhook-signature"])
    await expect(hook).toContainText(header);
  await expect(hook).toContainText("AuthLinkConnectedEvent");

  // Rendered from the document the server serves, fetched by the page itself.
  expect(watcher.requests).toContain(`${baseURL()}/v1/openapi.json`);
  await watcher.expectClean();
});

test("try it: the reader's own API key, sent to this server, shows the team's live JSON", async ({ page }) => {
  const team = await seedTeam();
  const name = `Try-it key ${team.id.slice(-6)}`;
  const created = await (
    await apiAs(team.users[0])
  ).post("/v1/connections", { data: { connection_type: "sandbox_key", name, credentials: { api_key: "demo-key-1" } } });
  expect(created.status(), await created.text()).toBe(200);
  const watcher = await watch(page);
  const doc = await liveDocument();
  await page.goto("/docs/api");

  const section = await openOperation(page, doc, { tags: ["Connections"], summary: "List connections" });
  await section.getByRole("button", { name: "Test Request" }).click();
  const client = page.getByRole("dialog");
  // Nothing is prefilled: the reader types their key into Scalar's auth form.
  const token = client.getByLabel("Bearer Token");
  await expect(token).toHaveValue("");
  await token.fill(team.users[0].key);
  const sent = page.waitForRequest((r) => r.url() === `${baseURL()}/v1/connections`);
  // The request goes straight to this server (the document's server is APP_URL): no proxy.
  await client.getByRole("button", { name: `Send get request to ${baseURL()}/v1/connections` }).click();
  expect((await sent).headers().authorization).toBe(`Bearer ${team.users[0].key}`);
  await expect(client).toContainText("200 OK");
  await expect(client).toContainText(`"display_name": "${name}"`);
  await page.screenshot({ path: join(screenshotsDir, "api-reference-try-it.png") });
  await watcher.expectClean();
});

test("every operation has curl, Python requests and @patchbay/client samples, and only those", async ({ page }) => {
  const doc = await liveDocument();
  for (const op of operationsOf(doc)) {
    expect(op["x-codeSamples"], `${op.method} ${op.path}`).toEqual([
      { lang: "TypeScript", label: "@patchbay/client", source: expect.stringContaining('from "@patchbay/client"') },
    ]);
  }
  const watcher = await watch(page);
  await page.goto("/docs/api");
  const op = operationsOf(doc).find((o) => o.method === "get" && o.path === "/v1/logs")!;
  const section = await openOperation(page, doc, op);
  const picker = section.getByRole("button", { name: /^Shell Curl/ });
  const code = section.locator("pre, code").first();
  await expect(code).toContainText("curl");
  await picker.click();
  await expect(page.getByRole("option")).toHaveText(["@patchbay/client", "Requests", "Curl"]);

  await page.getByRole("option", { name: "Requests" }).click();
  await expect(code).toContainText(`requests.get("${baseURL()}/v1/logs"`);
  await section.getByRole("button", { name: /^Python Requests/ }).click();
  await page.getByRole("option", { name: "@patchbay/client" }).click();
  // The document's own sample, line for line (the cursor list shows `iterate` as well).
  for (const line of (op["x-codeSamples"][0].source as string).split("\n").filter(Boolean))
    await expect(code).toContainText(line.trim());
  await expect(code).toContainText("patchbay.logs.iterate(");
  await page.screenshot({ path: join(screenshotsDir, "api-reference-samples.png") });
  await watcher.expectClean();
});

test("links to the schemas of the page before Scalar (#schema-Connection) still land on the schema", async ({
  page,
}) => {
  await page.goto("/docs/api#schema-Connection");
  await expect(page).toHaveURL(/#schemas\/Connection$/);
  await expect(page.getByRole("heading", { name: "Connection", exact: true })).toBeVisible();
});

test("on a 390 px phone the header's links take a second row inside the screen, and the page does not scroll sideways", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/docs/api");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const links = page.getByRole("navigation", { name: "API documents" }).getByRole("link");
  await expect(links).toHaveText(["openapi.json", "Webhooks", "Operations", "All docs"], { useInnerText: true });
  for (const link of await links.all()) {
    const box = (await link.boundingBox())!;
    expect(box.x, `${await link.textContent()} starts inside the screen`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${await link.textContent()} ends inside the screen`).toBeLessThanOrEqual(390);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
  // Scalar's own bar (its menu button) sits under the taller header, not behind it: Scalar is told its height.
  const header = (await page.getByRole("banner").first().boundingBox())!;
  expect(header.height).toBe(64);
  const scalarBar = (await page
    .getByRole("banner")
    .filter({ has: page.getByRole("button", { name: "Open Menu" }) })
    .boundingBox())!;
  expect(scalarBar.y).toBeGreaterThanOrEqual(header.y + header.height - 1);
  await page.screenshot({ path: join(screenshotsDir, "api-reference-390.png") });
});
