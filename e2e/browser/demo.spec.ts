import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { test, expect, cliWith } from "../fixtures";
import { root, freePort, freshPostgresDatabase, npmStart } from "../support/server";
import { inDatabase } from "../support/in-database";
import { screenshot } from "../support/browser";

// The demo a newcomer meets (issue 33): `npm start` on an empty database makes it with the product
// itself, and what it shows holds up: nothing left running, no node that succeeded without its
// connection, no error that names a provider that was not called, no service the product does
// not have, history spread over the past weeks, and every page fits a phone.

const SECTIONS = [
  "",
  "connections",
  "workflows",
  "approvals",
  "logs",
  "ledger",
  "settings/members",
  "settings/mcp-servers",
  "settings/audit-log",
];

test("npm start's demo is made by the product and reads true, page by page, at 390 px", async ({ page }) => {
  test.setTimeout(600_000);
  const pg = /^postgres/.test(process.env.DATABASE_URL ?? "")
    ? await freshPostgresDatabase(process.env.DATABASE_URL!, "patchbay_demo")
    : null;
  const dir = join(root, "e2e", ".artifacts", `demo-${randomBytes(4).toString("hex")}`);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DEMO: undefined,
    DATA_DIR: dir,
    DATABASE_URL: pg?.url ?? `file:${join(dir, "app.db")}`,
    PORT: String(port),
    APP_URL: origin,
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    AUTH_SECRET: randomBytes(32).toString("base64url"),
  };
  const product = npmStart(env);
  try {
    // The port stays closed until the product itself serves on it: nothing answers there while
    // the demo is made (the sandbox server it uses listens on a loopback port of its own).
    const answeredEarly: string[] = [];
    await expect
      .poll(
        async () => {
          const out = product.output();
          if (!out.includes("starting the server on port")) {
            const status = await fetch(`${origin}/v1/openapi.json`).then(
              (r) => r.status,
              () => null,
            );
            if (status !== null) answeredEarly.push(`${status} after: ${out.trim().split("\n").pop()}`);
          }
          return out;
        },
        { timeout: 420_000, intervals: [250] },
      )
      .toContain("Patchbay is running");
    expect(answeredEarly, "answers on the port before the product served").toEqual([]);
    // Each step says what it does, in order, with what it took.
    const out = product.output();
    let from = 0;
    for (const step of [
      /\[patchbay\] database: /,
      /\[patchbay\] making the demo workspace: /,
      /\[patchbay\] demo workspace made in \d+\.\d s/,
      /\[patchbay\] starting the server on port \d+/,
      /\[patchbay\] ready, \d+ (s|min \d+ s) after the start/,
      /Patchbay is running at /,
    ]) {
      const at = out.slice(from).search(step);
      expect(at, `${step} (after the first ${from} characters) in:\n${out}`).toBeGreaterThanOrEqual(0);
      from += at;
    }
    const [, email, password] = /Demo sign-in:\s+(\S+) \/ (\S+)/.exec(product.output())!;
    // The CLI, run without the server's PORT or APP_URL, prints where this npm start serves.
    const demo = await cliWith({ ...env, PORT: undefined, APP_URL: undefined }, "demo");
    const apiKey = /Demo API key:\s+(\S+)/.exec(out)![1];
    expect(demo.json).toEqual({ url: origin, email, password, api_key: apiKey });
    const facts = await inDatabase<DemoFacts>(FACTS, {}, env);

    // Made by the product, over the past weeks, and finished.
    expect(facts.runsByStatus.queued ?? 0, "runs left queued").toBe(0);
    expect(facts.runsByStatus.running ?? 0, "runs left running").toBe(0);
    expect(facts.runsByStatus.success, "runs that succeeded").toBeGreaterThan(20);
    expect(facts.runDays, "days with runs").toBeGreaterThanOrEqual(14);
    // The scheduler on time: every scheduled run started within 15 s of its slot (CONTRACT §9),
    // and its bookkeeping is no edit: nobody changed a workflow after making it.
    expect(facts.scheduledRuns, "scheduled runs").toBeGreaterThan(20);
    expect(facts.scheduledRunsOffTheirSlot, "scheduled runs not within 15 s of their slot").toEqual([]);
    expect(facts.workflowsChangedAfterCreation, "workflows whose 'changed' moved with nobody editing").toEqual([]);
    expect(facts.runsBeforeTheirWorkflow, "runs dated before their workflow").toEqual([]);
    expect(facts.nodesWithoutConnection, "nodes of a provider with no connection of the team").toEqual([]);
    expect(facts.builtInErrorsNamingAProvider, "a built-in's error naming a provider").toEqual([]);
    expect(facts.mcpLogs, "MCP calls through the MCP server").toBeGreaterThan(20);
    expect(facts.approvals.sort(), "approvals decided for real").toEqual([
      "rejected",
      "succeeded",
      "succeeded",
      "succeeded",
    ]);
    expect(facts.services.sort(), "services charged").toEqual(["agent", "mcp", "workflow"]);
    expect(facts.agentTurns, "agent turns through the agent loop, each finished").toEqual([
      "completed",
      "completed",
      "completed",
    ]);
    expect(facts.ledgerUntied, "ledger entries not tied to their run, call or turn").toBe(0);
    // The only workflow that writes is inactive: the demo never writes on its own.
    expect(facts.activeWriters).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${origin}/sign-in`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).not.toHaveURL(/\/sign-in/);
    const team = new URL(page.url()).pathname.split("/")[1];
    for (const section of SECTIONS) {
      await page.goto(`${origin}/${team}${section ? `/${section}` : ""}`);
      await settled(page);
      expect(await sideways(page), `/${section} scrolls sideways at 390 px`).toBe(0);
      await screenshot(page, `demo-${section.replace("/", "-") || "overview"}`);
      // What the rows say (a status filter's options name every status, Running among them).
      const rows = (await page.locator("main tbody, main [role=grid]").allInnerTexts()).join("\n");
      expect(rows, `/${section} shows a run still running`).not.toMatch(/\bRunning\b/);
    }
    // The teammate's assistant uses a token, never signs in: its card says when and through which
    // token it was last used, and counts its calls (as many as the logs hold), not "no app yet".
    await page.goto(`${origin}/${team}/settings/mcp-servers`);
    await settled(page);
    const assistant = page
      .getByTestId("mcp-server")
      .filter({ has: page.getByRole("heading", { name: "Claude Desktop" }) });
    await expect(assistant.getByTestId("mcp-last-activity")).toContainText("through token “Laptop”");
    await expect(assistant.getByTestId("mcp-last-activity")).toContainText(`${facts.mcpLogs} calls in the logs`);
    await expect(assistant).not.toContainText("No app has signed in to this server yet");
    await expect(assistant).toContainText("clients use this server through its 1 active token");
    // An agent turn's charge opens that turn's logs, under its conversation.
    await page.goto(`${origin}/${team}/ledger?service_type=agent`);
    await settled(page);
    await page.getByRole("link", { name: "Logs of this turn" }).first().click();
    await expect(page).toHaveURL(/\/logs\?source_id=conv_/);
    await settled(page);
    await expect(page.getByRole("grid", { name: "Operation logs" })).toContainText(/sandbox\.\w+.*agent/);
    // Each workflow's page: its runs ended, none says "Running".
    await page.goto(`${origin}/${team}/workflows`);
    await settled(page);
    const links = await page
      .locator('main a[href*="/workflows/wf"]')
      .evaluateAll((as) => [...new Set(as.map((a) => (a as HTMLAnchorElement).pathname))]);
    expect(links.length).toBe(3);
    for (const link of links) {
      await page.goto(`${origin}${link}`);
      await settled(page);
      expect(await sideways(page), `${link} scrolls sideways at 390 px`).toBe(0);
      expect((await page.locator("main tbody, main [role=grid]").allInnerTexts()).join("\n")).not.toMatch(
        /\bRunning\b/,
      );
    }
  } finally {
    await product.stop();
    await pg?.drop();
  }
});

type DemoFacts = {
  runsByStatus: Record<string, number>;
  runDays: number;
  scheduledRuns: number;
  scheduledRunsOffTheirSlot: string[];
  workflowsChangedAfterCreation: string[];
  runsBeforeTheirWorkflow: string[];
  nodesWithoutConnection: string[];
  builtInErrorsNamingAProvider: string[];
  mcpLogs: number;
  approvals: string[];
  services: string[];
  agentTurns: string[];
  ledgerUntied: number;
  activeWriters: string[];
};

const FACTS = `
  const runs = await db.workflowRun.findMany({ include: { workflow: { select: { createdAt: true } } } });
  const connections = new Set((await db.connection.findMany({ select: { id: true } })).map((c) => c.id));
  const runsByStatus = {};
  for (const r of runs) runsByStatus[r.status] = (runsByStatus[r.status] ?? 0) + 1;
  const nodesWithoutConnection = [];
  for (const r of runs)
    for (const n of JSON.parse(r.state).nodes ?? [])
      if (!n.operation_id.startsWith("utility.") && !connections.has(n.connection_id ?? ""))
        nodesWithoutConnection.push(r.id + "/" + n.id);
  const builtIn = await db.operationLog.findMany({
    where: { operationId: { startsWith: "utility." }, status: "error" },
    select: { id: true, output: true, metadata: true },
  });
  const workflows = await db.workflow.findMany({ select: { name: true, active: true, nodes: true, createdAt: true, updatedAt: true } });
  const scheduled = runs.filter((r) => r.trigger === "schedule");
  return {
    runsByStatus,
    runDays: new Set(runs.map((r) => new Date(Number(r.createdAt)).toISOString().slice(0, 10))).size,
    scheduledRuns: scheduled.length,
    scheduledRunsOffTheirSlot: scheduled
      .filter((r) => r.startedAt === null || Number(r.startedAt) < Number(r.slotAt) || Number(r.startedAt) - Number(r.slotAt) >= 15000)
      .map((r) => r.workflowName + ": slot " + new Date(Number(r.slotAt)).toISOString() + ", started " + (r.startedAt === null ? "never" : new Date(Number(r.startedAt)).toISOString())),
    workflowsChangedAfterCreation: workflows
      .filter((w) => w.updatedAt.getTime() - w.createdAt.getTime() > 1000)
      .map((w) => w.name + ": created " + w.createdAt.toISOString() + ", changed " + w.updatedAt.toISOString()),
    runsBeforeTheirWorkflow: runs.filter((r) => Number(r.createdAt) < r.workflow.createdAt.getTime()).map((r) => r.id),
    nodesWithoutConnection,
    builtInErrorsNamingAProvider: builtIn
      .filter((l) => /provider|HTTP \\d{3}/i.test((l.output ?? "") + l.metadata))
      .map((l) => l.id),
    mcpLogs: await db.operationLog.count({ where: { sourceType: "mcp" } }),
    approvals: (await db.approval.findMany({ select: { status: true } })).map((a) => a.status),
    agentTurns: (await db.agentTurn.findMany({ select: { status: true } })).map((t) => t.status),
    services: [...new Set((await db.creditLedgerEntry.findMany({ select: { serviceType: true } })).map((e) => e.serviceType))],
    ledgerUntied: await db.creditLedgerEntry.count({ where: { runId: null, logId: null, turnId: null } }),
    activeWriters: workflows
      .filter((w) => w.active && (typeof w.nodes === "string" ? JSON.parse(w.nodes) : w.nodes).some((n) => /set_note|post_message/.test(n.operation_id)))
      .map((w) => w.name),
  };
`;

async function settled(page: Page) {
  await expect(page.locator("main h1").first()).toBeVisible();
  await expect(page.locator("main .animate-pulse")).toHaveCount(0, { timeout: 15_000 });
}

const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
