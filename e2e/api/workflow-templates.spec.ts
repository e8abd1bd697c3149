import { randomBytes } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { test, expect, seedTeam, seed, apiAs, cli, baseURL, type SeededTeam } from "../fixtures";
import { createLink, connect, paramsOf } from "../support/oauth-flow";
import { sessionAs } from "../support/session";
import { workspaceId } from "../support/stand-ins/google-workspace";
import { findWorkflowTemplate, instantiateTemplate } from "@/lib/workflows/workflow-templates";

// The templates, run as a team sets them up (its connections, its fields). Those that write to
// Google's documents run against the Google stand-in: the GA4 totals reach a Sheets append and a
// Slides copy exactly, through the same workflow runner a schedule uses. The three of issue 48
// (a condition, a loop, a stop, an approval step) run on the sandbox alone, from a fresh team,
// created as the gallery's "Create workflow" creates them and started with Run now.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion

const googleBase = () => JSON.parse(process.env.PROVIDER_BASE_URLS ?? "{}").google_sheets as string;

async function connectGoogle(team: SeededTeam, type: string, account: string): Promise<string> {
  const api = await apiAs(team.users[0]);
  const link = await createLink(api, { connection_type: type, redirect_url: "https://client.example.com/cb" });
  const done = paramsOf(await connect(link, type, { account }));
  expect(done, JSON.stringify(done)).toMatchObject({ status: "success" });
  return done.connection_id;
}

async function requestsOf(account: string): Promise<Json[]> {
  const res = await fetch(`${googleBase()}/__stand-in/requests?${new URLSearchParams({ account })}`);
  return ((await res.json()) as { requests: Json[] }).requests;
}

async function runTemplate(team: SeededTeam, id: string, connections: Record<string, string>, fields: Json) {
  const template = findWorkflowTemplate(id)!;
  expect(template, id).toBeTruthy();
  const nodes = instantiateTemplate(template, connections, fields);
  const made = await cli(
    "workflow",
    "create",
    "--team",
    team.id,
    "--user",
    team.users[0].id,
    "--name",
    template.name,
    "--nodes",
    JSON.stringify(nodes),
  );
  expect(made.code, JSON.stringify(made.json)).toBe(0);
  const run = await cli("workflow", "run", "--id", made.json.id, "--wait");
  expect(run.code, JSON.stringify(run.json)).toBe(0);
  const logs = (await (await apiAs(team.users[0])).get(`/v1/logs?source_run_id=${run.json.run_id}&limit=10`)).json();
  return { run: run.json, logs: (await logs).data as Json[] };
}

test("Weekly GA4 totals appended to a Google Sheet: the report's totals become one row at the end of the tab", async () => {
  const account = `template-sheet-${randomBytes(4).toString("hex")}`;
  const team = await seedTeam({ name: "Templates sheet", plan: "team" });
  const ga4 = await connectGoogle(team, "ga4", account);
  const sheets = await connectGoogle(team, "google_sheets", account);
  const sheet = workspaceId(account, "leads");
  const { run, logs } = await runTemplate(
    team,
    "weekly_ga4_to_sheet",
    { ga4, sheets },
    { property_id: "123456789", spreadsheet_id: sheet, tab: "Sheet1" },
  );
  expect(run.status, JSON.stringify(logs)).toBe("success");
  expect(logs.map((l) => `${l.operation_id} ${l.status}`).sort()).toEqual([
    "ga4.run_report success",
    "google_sheets.values.append success",
  ]);
  const [append] = (await requestsOf(account)).filter((r) => r.method === "POST" && r.path.endsWith(":append"));
  expect(append.path).toBe(`/v4/spreadsheets/${sheet}/values/Sheet1:append`);
  expect(append.query).toMatchObject({ valueInputOption: "USER_ENTERED", insertDataOption: "INSERT_ROWS" });
  const [row] = append.json.values as unknown[][];
  expect(row).toHaveLength(5);
  expect(row[0]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(row[1]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  // The totals arrive as numbers (a whole-string reference keeps its type), so the sheet can sum them.
  for (const total of row.slice(2)) expect(typeof total).toBe("number");
});

test("Monthly client deck from a Slides template: a copy of the template with the GA4 totals in its placeholders", async () => {
  const account = `template-deck-${randomBytes(4).toString("hex")}`;
  const team = await seedTeam({ name: "Templates deck", plan: "team" });
  const ga4 = await connectGoogle(team, "ga4", account);
  const slides = await connectGoogle(team, "google_slides", account);
  const template = workspaceId(account, "template");
  const { run, logs } = await runTemplate(
    team,
    "monthly_ga4_slides_deck",
    { ga4, slides },
    { property_id: "123456789", template_id: template, client: "Acme" },
  );
  expect(run.status, JSON.stringify(logs)).toBe("success");
  const requests = await requestsOf(account);
  const [copy] = requests.filter((r) => r.method === "POST" && r.path === `/drive/v3/files/${template}/copy`);
  expect(copy.json.name).toMatch(/^Acme — report to \d{4}-\d{2}-\d{2}$/);
  const [update] = requests.filter((r) => r.method === "POST" && r.path.endsWith(":batchUpdate"));
  const replaced = Object.fromEntries(
    (update.json.requests as Json[]).map((r) => [r.replaceAllText.containsText.text, r.replaceAllText.replaceText]),
  );
  expect(replaced["{{sessions}}"]).toMatch(/^\d+ sessions$/);
  expect(replaced["{{users}}"]).toMatch(/^\d+ users$/);
  expect(replaced["{{period}}"]).toMatch(/^the 28 days to \d{4}-\d{2}-\d{2}$/);
});

// ---- Issue 48's templates, on the sandbox ----

const PASSWORD = "templates-pass-1";
const unique = () => `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
const yesterdayUtc = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

type Session = APIRequestContext;

async function sandboxKey(team: SeededTeam, apiKey: string): Promise<string> {
  const res = await (
    await apiAs(team.users[0])
  ).post("/v1/connections", {
    data: { connection_type: "sandbox_key", name: `Sandbox ${apiKey}`, credentials: { api_key: apiKey } },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).id;
}

/** What the sandbox answers an account for a report ending yesterday (UTC, the templates' zone): what its run will read. */
async function sandboxDays(apiKey: string, metric: string, days: number): Promise<{ date: string; value: number }[]> {
  const query = new URLSearchParams({ metric, days: String(days), end_date: yesterdayUtc() });
  const res = await fetch(`${baseURL()}/sandbox/api/report?${query}`, { headers: { "x-api-key": apiKey } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { rows: { date: string; value: number }[] }).rows;
}

/** The gallery's "Create workflow": the template filled in with the team's connections and values, saved active. */
async function createFromGallery(session: Session, id: string, connections: Record<string, string>, fields = {}) {
  const template = findWorkflowTemplate(id)!;
  const res = await session.post("/api/dashboard/workflows", {
    data: {
      name: template.name,
      nodes: instantiateTemplate(template, connections, fields),
      schedule: template.schedule,
      timezone: template.timezone,
      active: true,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const workflow = (await res.json()) as Json;
  expect(workflow).toMatchObject({ active: true, schedule: template.schedule });
  return workflow;
}

async function runNow(session: Session, workflowId: string): Promise<string> {
  const res = await session.post(`/api/dashboard/workflows/${workflowId}/runs`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).run_id;
}

/** Polls a run until it is in one of `statuses` (an end, or parked at an approval). */
async function runReaches(runId: string, statuses: string[], timeoutMs = 30_000): Promise<Json> {
  for (const until = Date.now() + timeoutMs; ;) {
    const run = await seed<Json | null>("workflowRun", { id: runId });
    if (run && statuses.includes(run.status)) return run;
    if (Date.now() > until) throw new Error(`run ${runId} did not reach ${statuses.join("/")}: ${JSON.stringify(run)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A run's logs in node order, a loop's by item. */
async function runLogs(team: SeededTeam, runId: string): Promise<Json[]> {
  const res = await (await apiAs(team.users[0])).get(`/v1/logs?source_run_id=${runId}&limit=100`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()).data as Json[]).sort(
    (a, b) =>
      a.started_at - b.started_at ||
      (a.metadata.iteration ?? -1) - (b.metadata.iteration ?? -1) ||
      a.id.localeCompare(b.id),
  );
}

const pendingOf = async (runId: string, teamId: string) =>
  ((await cli("approval", "list", "--team", teamId)).json.approvals as Json[]).filter(
    (a) => a.run_id === runId && a.status === "pending",
  );

test("the gallery lists issue 48's three sandbox templates", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const session = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const page = await (await session.get(`/${team.id}/workflows/templates`)).text();
  for (const id of [
    "sandbox_days_over_threshold_with_approval",
    "sandbox_alert_when_metric_drops",
    "sandbox_weekly_row_per_day",
  ])
    expect(page).toContain(findWorkflowTemplate(id)!.name.replace(/'/g, "&#x27;"));
});

test("Pause each campaign over a threshold, with approval (sandbox): a member switches it on; each day over the threshold waits for a yes, one at a time; the others are skipped", async () => {
  const team = await seedTeam({ password: PASSWORD, members: 2 });
  const [owner, member] = [
    await sessionAs(team.users[0].email, PASSWORD, team.id),
    await sessionAs(team.users[1].email, PASSWORD, team.id),
  ];
  const apiKey = `sk-threshold-${unique()}`;
  const sandbox = await sandboxKey(team, apiKey);
  // A threshold that exactly two of last week's days pass.
  const days = await sandboxDays(apiKey, "revenue", 7);
  const threshold = [...days.map((d) => d.value)].sort((a, b) => b - a)[2];
  const over = days.flatMap((d, i) => (d.value > threshold ? [i] : []));
  expect(over).toHaveLength(2);

  // Its one write has an approval step, so a member may save it active.
  const workflow = await createFromGallery(
    member,
    "sandbox_days_over_threshold_with_approval",
    { sandbox },
    {
      threshold: String(threshold),
    },
  );
  expect(workflow.nodes[1]).toMatchObject({ when: { op: "gt", right: threshold }, approval: "required" });
  const runId = await runNow(member, workflow.id);

  for (const [n, day] of over.entries()) {
    const run = await runReaches(runId, ["waiting_approval"]);
    expect(run.status).toBe("waiting_approval");
    const [request] = await pendingOf(runId, team.id);
    // The approver sees the day the write is for.
    const detail = (await (await owner.get(`/api/dashboard/approvals/${request.id}`)).json()) as Json;
    expect(detail.workflow).toMatchObject({ id: workflow.id, node_id: "flag", item: { index: day, count: 7 } });
    expect(JSON.stringify(detail)).toContain(`Over the threshold on ${days[day].date}`);
    const approved = await owner.post(`/api/dashboard/approvals/${request.id}/approve`, { data: {} });
    expect(approved.status(), await approved.text()).toBe(200);
    if (n < over.length - 1)
      for (const until = Date.now() + 15_000; !(await pendingOf(runId, team.id)).length;) {
        expect(Date.now() < until, "the next day's request is filed").toBe(true);
        await new Promise((r) => setTimeout(r, 250));
      }
  }
  const run = await runReaches(runId, ["success", "error", "stopped"]);
  expect(run.status).toBe("success");
  const logs = await runLogs(team, runId);
  expect(logs.map((l) => [l.metadata.node_id, l.metadata.iteration, l.status])).toEqual([
    ["report", undefined, "success"],
    ...days.map((_, i) => ["flag", i, over.includes(i) ? "success" : "skipped"]),
  ]);
  for (const log of logs.filter((l) => l.status === "skipped")) expect(log.output).toEqual({ reason: "condition" });
  for (const log of logs.filter((l) => l.metadata.node_id === "flag" && l.status === "success"))
    expect(log.metadata).toMatchObject({ approved_by: team.users[0].id, iterations: 7 });
  // 1 + the report + one note per approved day.
  expect(run.credits).toBe(1 + logs[0].credits_used + over.length);
});

test("Alert only when a metric drops (sandbox): an account whose sessions dropped gets the alert; one whose did not stops with nothing to report", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  // One account of each kind, found by asking the sandbox what yesterday and the day before were.
  const accounts: { dropped?: string; steady?: string } = {};
  for (let i = 0; i < 40 && !(accounts.dropped && accounts.steady); i++) {
    const key = `sk-drop-${unique()}-${i}`;
    const [before, yesterday] = await sandboxDays(key, "sessions", 2);
    accounts[yesterday.value < before.value ? "dropped" : "steady"] ??= key;
  }
  for (const [kind, apiKey] of Object.entries(accounts) as [keyof typeof accounts, string][]) {
    const sandbox = await sandboxKey(team, apiKey);
    const workflow = await createFromGallery(owner, "sandbox_alert_when_metric_drops", { sandbox });
    const runId = await runNow(owner, workflow.id);
    const run = await runReaches(runId, ["success", "error", "stopped"]);
    const logs = await runLogs(team, runId);
    const [before, yesterday] = logs[0].output.rows as { date: string; value: number }[];
    expect(
      logs.map((l) => [l.metadata.node_id, l.status]),
      kind,
    ).toEqual(
      kind === "dropped"
        ? [
            ["report", "success"],
            ["no_drop", "skipped"],
            ["alert", "success"],
          ]
        : [
            ["report", "success"],
            ["no_drop", "stop"],
            ["alert", "skipped"],
          ],
    );
    if (kind === "dropped") {
      expect(run.status).toBe("success");
      expect(logs[2].output.note).toBe(
        `Sessions dropped on ${yesterday.date}: ${yesterday.value}, down from ${before.value} the day before.`,
      );
      expect(run.credits).toBe(1 + logs[0].credits_used + logs[2].credits_used);
    } else {
      expect(run.status).toBe("stopped");
      expect(logs[1].output).toEqual({ reason: "Sessions did not drop: nothing to report." });
      expect(logs[2].output).toBeNull();
      expect(run.credits).toBe(1 + logs[0].credits_used);
    }
  }
});

test("A weekly row per client account (sandbox): one note per day of last week, in order, each charged", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const apiKey = `sk-weekly-${unique()}`;
  const sandbox = await sandboxKey(team, apiKey);
  const workflow = await createFromGallery(owner, "sandbox_weekly_row_per_day", { sandbox });
  expect(workflow).toMatchObject({ schedule: "0 7 * * 1", timezone: "UTC" });
  const runId = await runNow(owner, workflow.id);
  const run = await runReaches(runId, ["success", "error", "stopped"]);
  expect(run.status).toBe("success");
  const logs = await runLogs(team, runId);
  const days = logs[0].output.rows as { date: string; value: number }[];
  expect(days).toHaveLength(7);
  expect(logs.slice(1).map((l) => [l.metadata.iteration, l.metadata.iterations, l.status])).toEqual(
    days.map((_, i) => [i, 7, "success"]),
  );
  const rows = days.map((d) => `Week to ${yesterdayUtc()} · ${d.date} · ${d.value} sessions`);
  expect(logs.slice(1).map((l) => l.output.note)).toEqual(rows);
  // Each row replaced the one before: the account's note ends on the last day's.
  expect(logs.slice(2).map((l) => l.output.previous_note)).toEqual(rows.slice(0, -1));
  expect(run.credits).toBe(1 + logs[0].credits_used + 7 * logs[1].credits_used);
});
