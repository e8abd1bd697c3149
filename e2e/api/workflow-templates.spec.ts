import { randomBytes } from "node:crypto";
import { test, expect, seedTeam, apiAs, cli, type SeededTeam } from "../fixtures";
import { createLink, connect, paramsOf } from "../support/oauth-flow";
import { workspaceId } from "../support/stand-ins/google-workspace";
import { findWorkflowTemplate, instantiateTemplate } from "@/lib/workflows/workflow-templates";

// The templates that write to Google's documents, run as a team sets them up (its connections,
// its fields) against the Google stand-in: the GA4 totals reach a Sheets append and a Slides copy
// exactly, through the same workflow runner a schedule uses.

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
