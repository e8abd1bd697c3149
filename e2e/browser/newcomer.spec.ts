import type { Page } from "@playwright/test";
import { test, expect, seed, cli, apiAs } from "../fixtures";
import { screenshot, seedTeamWithPasswords, signIn } from "../support/browser";

// What a newcomer sees (issues 33 and 47): every dashboard and docs page fits a phone and a wide
// screen, shows every column or says which are out of view, ends where its content ends, counts
// what it shows and names itself in the tab; the docs are one click away and lead back.

// Every page a signed-in person can open, and the docs; {workflow} is a workflow whose name is
// 200 characters without a space, {connection} the connection its nodes use.
const DASHBOARD = [
  "",
  "clients",
  "clients/~none",
  "connections",
  "connections/{connection}",
  "auth-links",
  "workflows",
  "workflows/templates",
  "workflows/new",
  "workflows/{workflow}",
  "workflows/{workflow}/edit",
  "operations",
  "approvals",
  "logs",
  "ledger",
  "agent",
  "agent/new",
  "settings/members",
  "settings/api-keys",
  "settings/mcp-servers",
  "settings/webhooks",
  "settings/sessions",
  "settings/audit-log",
  "settings/data-retention",
];
const DOCS = [
  "/docs",
  "/docs/api",
  "/docs/connections",
  "/docs/mcp",
  "/docs/operations",
  "/docs/workflows",
  "/docs/webhooks",
];

/** Waits until the page shows its data: a heading, and no loading skeleton left. */
async function settled(page: Page) {
  await expect(page.locator("h1").first()).toBeVisible();
  await expect(page.locator("main .animate-pulse")).toHaveCount(0, { timeout: 15_000 });
}

/** How far the page scrolls sideways, and how far it runs on below the end of <main>. */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const doc = document.documentElement;
    const main = document.querySelector("main")!;
    return {
      sideways: doc.scrollWidth - window.innerWidth,
      // A short page fills the window (min-h-screen): only what runs on past both counts.
      belowMain: doc.scrollHeight - Math.max(main.getBoundingClientRect().bottom + window.scrollY, window.innerHeight),
    };
  });

/**
 * What a table tells wrong on the page as it is: a column scrolled out of view with nothing
 * visible naming it, a card with an empty block under its rows, a row count or a summary that
 * disagrees with the rows it counts.
 */
const tableProblems = (page: Page) =>
  page.evaluate(() => {
    const out: string[] = [];
    const scrolls = (el: Element) =>
      el.scrollWidth > el.clientWidth + 1 && /auto|scroll/.test(getComputedStyle(el).overflowX);
    for (const th of document.querySelectorAll<HTMLElement>('[role="columnheader"], thead th')) {
      const name = th.textContent?.trim();
      let box = th.parentElement;
      while (box && !scrolls(box)) box = box.parentElement;
      // An empty table's headers hide no value (its empty state says what to do).
      const table = th.closest('[role="grid"], table');
      const rows = table?.querySelectorAll('[role="row"]:not([aria-rowindex="1"]), tbody tr').length;
      if (!name || !box || rows === 0) continue;
      const r = th.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      const centre = r.left + r.width / 2;
      if (centre >= b.left && centre <= b.right) continue;
      const hints = [...(box.parentElement?.querySelectorAll<HTMLElement>('[data-testid="more-columns"]') ?? [])];
      if (!hints.some((h) => h.checkVisibility() && h.textContent?.includes(name)))
        out.push(`column "${name}" is out of view and nothing visible says so`);
    }
    for (const box of document.querySelectorAll<HTMLElement>('[data-testid="data-table-scroll"]')) {
      const grid = box.querySelector<HTMLElement>('[role="grid"]');
      if (!grid || grid.getAttribute("aria-busy") === "true") continue;
      const bottom = Math.max(...[...box.children].map((c) => c.getBoundingClientRect().bottom));
      const blank = box.getBoundingClientRect().bottom - 1 - bottom;
      if (blank > 24)
        out.push(`"${grid.getAttribute("aria-label")}" has ${Math.round(blank)} px of blank card under its rows`);
      const end = box.querySelector('[data-testid="end-of-list"]')?.textContent ?? "";
      const counted = /^([\d,]+) rows?\b/.exec(end)?.[1];
      const rows = grid.querySelectorAll('[role="row"]').length - 1;
      const everyRowShown = box.scrollHeight <= box.clientHeight + 1;
      if (counted !== undefined && everyRowShown && Number(counted.replace(/,/g, "")) !== rows)
        out.push(`"${grid.getAttribute("aria-label")}" says ${counted} rows and shows ${rows}`);
    }
    // The Workflows page's summary counts what the rows' badges say.
    const summary = document.querySelector('[data-testid="workflows-count"]')?.textContent;
    const grid = document.querySelector('[role="grid"][aria-label="Workflows"]');
    if (summary && grid) {
      const rows = [...grid.querySelectorAll('[role="row"]')].slice(1);
      const badges = rows.map((row) => (row.querySelector('[role="gridcell"]:nth-child(2)')?.textContent ?? "").trim());
      const expected = [`${rows.length} workflow${rows.length === 1 ? "" : "s"}`];
      for (const state of ["Active", "Manual", "Inactive"]) {
        const n = badges.filter((b) => b.startsWith(state)).length;
        if (n) expected.push(`${n} ${state.toLowerCase()}`);
      }
      if (summary.trim() !== expected.join(" · "))
        out.push(`the workflows summary says "${summary.trim()}", the rows "${expected.join(" · ")}"`);
    }
    return out;
  });

/** `check` until it finds nothing (a table measures itself after it renders), or what it found after 5 s. */
async function eventually(check: () => Promise<string[]>) {
  let found: string[] = [];
  const until = Date.now() + 5_000;
  do {
    found = await check();
    if (!found.length) break;
    await new Promise((r) => setTimeout(r, 200));
  } while (Date.now() < until);
  return found;
}

test("every dashboard and docs page fits a 390 px phone and a 1440 px screen: no sideways scroll, no hidden column without a sign, counts that match their rows, a tab title of its own", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const team = await seedTeamWithPasswords({ name: "A team with a long name that has to wrap on a phone" });
  // Some of everything: a connection, a workflow with runs, MCP calls, an API key.
  const conn = await (
    await apiAs(team.users[0])
  ).post("/v1/connections", {
    data: { connection_type: "sandbox_key", name: "Phone check", credentials: { api_key: "sk-phone-check" } },
  });
  expect(conn.status()).toBe(200);
  const { id: connectionId } = (await conn.json()) as { id: string };
  const simulated = await cli(
    "activity",
    "simulate",
    "--team",
    team.id,
    "--workflow-runs",
    "20",
    "--mcp-calls",
    "30",
    "--days",
    "5",
    "--seed",
    "7",
  );
  expect(simulated.code, JSON.stringify(simulated.json)).toBe(0);
  // One workflow of each state the badges tell apart; the scheduled one's name has no space to break at.
  const nodes = JSON.stringify([
    {
      id: "report",
      label: "Sessions, last 7 days",
      operation_id: "sandbox.report",
      connection_id: connectionId,
      input: { metric: "sessions", days: 7 },
    },
  ]);
  const workflow = async (name: string, ...flags: string[]) => {
    const made = await cli(
      "workflow",
      "create",
      "--team",
      team.id,
      "--user",
      team.users[0].id,
      "--name",
      name,
      "--nodes",
      nodes,
      ...flags,
    );
    expect(made.code, JSON.stringify(made.json)).toBe(0);
    return made.json.id as string;
  };
  const long = await workflow("Weekly".padEnd(200, "x"), "--schedule", "0 9 * * 1", "--timezone", "Europe/Paris");
  await workflow("Run by hand");
  await workflow("Paused report", "--schedule", "0 8 * * *", "--inactive");
  await signIn(page, team.users[0].email);

  const problems: string[] = [];
  const titles = new Map<string, string>();
  const paths = [
    ...DASHBOARD.map(
      (d) => `/${team.id}${d ? `/${d.replace("{workflow}", long).replace("{connection}", connectionId)}` : ""}`,
    ),
    ...DOCS,
  ];
  for (const [width, height] of [
    [390, 844],
    [1440, 900],
  ]) {
    await page.setViewportSize({ width, height });
    for (const [i, path] of paths.entries()) {
      const name = (DASHBOARD[i] ?? path) || "overview";
      await page.goto(path);
      await settled(page);
      const { sideways, belowMain } = await overflow(page);
      if (sideways > 0) problems.push(`${name} at ${width} px scrolls ${sideways} px sideways`);
      if (belowMain > 1) problems.push(`${name} at ${width} px runs ${belowMain} px past its content`);
      for (const p of await eventually(() => tableProblems(page))) problems.push(`${name} at ${width} px: ${p}`);
      if (width === 1440) {
        const title = await page.title();
        if (titles.has(title)) problems.push(`${name} has the tab title of ${titles.get(title)}: "${title}"`);
        titles.set(title, name);
      }
      if (width === 390 && !path.startsWith("/docs"))
        await screenshot(page, `phone-${(DASHBOARD[i] || "overview").replace(/\//g, "-").replace(/\{\w+\}/, "id")}`);
    }
  }
  expect(problems).toEqual([]);
  expect(titles.get(`${"Weekly".padEnd(200, "x")} · Workflows · Patchbay`)).toBe("workflows/{workflow}");
});

test("an address that leads nowhere says so on Patchbay's own page and leads back", async ({ page }) => {
  const team = await seedTeamWithPasswords({ name: "Lost Co" });
  await signIn(page, team.users[0].email);
  for (const path of ["/no-such-page", `/${team.id}/settings/no-such-tab`, `/${team.id}/workflows/wf_nope/edit/more`]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page).toHaveTitle("Page not found · Patchbay");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
  }
  await page.getByRole("link", { name: "Go to your dashboard" }).click();
  await expect(page).toHaveURL(new RegExp(`/${team.id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Overview");
});

test("the dashboard links to the docs, and every docs page leads back to the dashboard", async ({ page }) => {
  const team = await seedTeamWithPasswords({ name: "Docs Co" });
  await signIn(page, team.users[0].email);
  await page.getByRole("link", { name: "Docs", exact: true }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Patchbay docs");
  const guides = page.getByRole("main").getByRole("listitem").getByRole("link");
  const hrefs = await guides.evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
  expect(hrefs).toEqual([
    "/docs/api",
    "/docs/connections",
    "/docs/mcp",
    "/docs/operations",
    "/docs/workflows",
    "/docs/webhooks",
  ]);
  for (const href of hrefs) {
    await page.goto(href);
    await page.getByRole("link", { name: "Dashboard", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/${team.id}$`));
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }
});

test("a log opens from its link; a folded object in its JSON shows its size, not an empty brace", async ({ page }) => {
  const team = await seedTeamWithPasswords({ name: "JSON Co" });
  const { ids } = await seed<{ ids: string[] }>("logs", {
    team: team.id,
    startedAgo: [30],
    output: { report: { rows: { first: { sessions: 12 } }, total: 12 } },
  });
  await signIn(page, team.users[0].email);
  await page.goto(`/${team.id}/logs?log=${ids[0]}`);
  const panel = page.getByRole("dialog");
  await expect(panel).toContainText(ids[0]);
  // The output's tree: two levels open; "rows" (the third) folded, saying what it holds.
  const rows = panel.locator("summary", { hasText: '"rows"' });
  await expect(rows).toBeVisible();
  // What shows (innerText): the folded size is hidden once open, and shown again inside.
  await expect(rows).toHaveText(/"rows": \{\s*1 key \}/, { useInnerText: true });
  await rows.click();
  await expect(rows).toHaveText(/"rows": \{$/, { useInnerText: true });
  await expect(panel.locator("summary", { hasText: '"first"' })).toHaveText(/"first": \{\s*1 key \}/, {
    useInnerText: true,
  });
  // Closing puts the logs page back without the log in its URL.
  await page.getByRole("button", { name: "Close log detail" }).click();
  await expect(page).toHaveURL(new RegExp(`/${team.id}/logs$`));
});

test("on a phone the Menu button opens the grouped sections and the docs; choosing one goes there and closes it", async ({
  page,
}) => {
  const team = await seedTeamWithPasswords({ name: "Phone Co" });
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, team.users[0].email);
  const menu = page.getByRole("button", { name: "Menu" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("navigation", { name: "Sections" })).toHaveCount(0);
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  const sections = page.getByRole("navigation", { name: "Sections" });
  for (const group of ["Connect", "Automate", "Activity"]) await expect(sections).toContainText(group);
  await expect(page.getByRole("link", { name: "Docs", exact: true })).toBeVisible();
  await sections.getByRole("link", { name: "Ledger" }).click();
  await expect(page).toHaveURL(new RegExp(`/${team.id}/ledger$`));
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("navigation", { name: "Sections" })).toHaveCount(0);
});
