import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { test, expect, seed, cli, apiAs, baseURL } from "../fixtures";
import { PASSWORD, seedTeamWithPasswords, signIn, signInShared } from "../support/browser";
import { signInCookie } from "../support/hostile";
import { mcpClient } from "../support/mcp";

// WCAG 2.0/2.1/2.2 A and AA as a standing check: axe-core (the npm package, run inside this
// suite's Chromium) on every page, in the light and dark colour schemes, at 1440 px and at
// 390 px, with tables full of data and in the states a person reaches (an open detail panel, an
// open dialog). A new page joins by adding one entry to PAGES.

type World = {
  team: string;
  email: string;
  connectPath: string;
  invitePath: string;
  consentPath: string;
  connection: string;
};

type PageEntry = {
  name: string;
  path: (w: World) => string;
  /** Signed out (the sign-in, connect and invite pages are public). */
  public?: boolean;
  /** Waits until the page shows its data, so the check sees what a person sees. */
  ready?: (page: Page) => Promise<unknown>;
  /** Further states to check: each is reached from the loaded page, then checked too. */
  states?: { name: string; reach: (page: Page) => Promise<unknown> }[];
};

const tableRows = (page: Page) => expect(page.getByRole("row").nth(3)).toBeVisible();

// The Approvals page is checked with requests waiting: filed once per worker, through an MCP
// server of the seeded team whose writes need approval, then the page is loaded again.
let approvalsFiled: Promise<void> | undefined;
const withPendingApprovals = async (page: Page) => {
  approvalsFiled ??= (async () => {
    const headers = { "x-patchbay-team": world.team };
    const [conn] = (await (await page.request.get("/v1/connections?type=sandbox_key", { headers })).json()) as {
      id: string;
    }[];
    const { data: members } = (await (await page.request.get("/api/dashboard/members", { headers })).json()) as {
      data: { user_id: string; role: string }[];
    };
    const owner = members.find((m) => m.role === "owner")!;
    const made = await cli(
      "mcp",
      "create",
      "--team",
      world.team,
      "--user",
      owner.user_id,
      "--name",
      "Ops agent",
      "--connections",
      conn.id,
      "--writes",
      "approval",
    );
    const client = await mcpClient(made.json.token);
    for (const note of [
      "Quarterly review on Monday",
      "Budget freeze until the audit ends",
      "Pause the spring campaign",
    ]) {
      await client.callTool({
        name: "run_write_operation",
        arguments: { operation_id: "sandbox.set_note", connection_id: conn.id, input: { note } },
      });
    }
    await client.close();
  })();
  await approvalsFiled;
  await page.reload();
  await tableRows(page);
};
const approvalPanel = (p: Page) => p.getByRole("dialog", { name: /^Approval request/ });

// The workflow pages are checked with a workflow that reads, formats and writes on the seeded
// sandbox_key connection, on a schedule, after one run: made once per worker through the CLI.
// Keyed by team: a worker may set up another world (another file's beforeAll) after this one.
const workflowsMade = new Map<string, Promise<string>>();
const withWorkflow = () => {
  const made =
    workflowsMade.get(world.team) ??
    (async () => {
      const session = await signInCookie(world.email, PASSWORD);
      const headers = { cookie: session, "x-patchbay-team": world.team, "content-type": "application/json" };
      const { data: members } = (await (await fetch(`${baseURL()}/api/dashboard/members`, { headers })).json()) as {
        data: { user_id: string; role: string }[];
      };
      const owner = members.find((m) => m.role === "owner")!;
      const conn = (
        (await (await fetch(`${baseURL()}/v1/connections?type=sandbox_key`, { headers })).json()) as { id: string }[]
      )[0];
      const nodes = [
        {
          id: "report",
          label: "Sessions, last 7 days",
          operation_id: "sandbox.report",
          connection_id: conn.id,
          input: { metric: "sessions", days: 7, end_date: "{{run.date.yesterday}}" },
        },
        {
          id: "message",
          label: "Write the note",
          operation_id: "utility.format_text",
          input: { template: "{{nodes.report.output.total}} sessions to {{run.date.yesterday}}" },
        },
        {
          id: "note",
          label: "Save it as the note",
          operation_id: "sandbox.set_note",
          connection_id: conn.id,
          input: { note: "{{nodes.message.output.text}}" },
        },
      ];
      const made = await cli(
        "workflow",
        "create",
        "--team",
        world.team,
        "--user",
        owner.user_id,
        "--name",
        "Weekly sessions note",
        "--nodes",
        JSON.stringify(nodes),
        "--schedule",
        "0 9 * * 1",
        "--timezone",
        "Europe/Paris",
      );
      expect(made.code, JSON.stringify(made.json)).toBe(0);
      const ran = await cli("workflow", "run", "--id", made.json.id, "--wait");
      expect(ran.code, JSON.stringify(ran.json)).toBe(0);
      return made.json.id as string;
    })();
  workflowsMade.set(world.team, made);
  return made;
};
const runsGrid = (p: Page) => p.getByRole("grid", { name: "Runs" });

// The Agent pages are checked with a conversation on a sandbox_model connection: a report
// answered with its step, then a note whose write waits for approval. Made once per team.
const conversationsMade = new Map<string, Promise<string>>();
const withConversation = () => {
  const made =
    conversationsMade.get(world.team) ??
    (async () => {
      const session = await signInCookie(world.email, PASSWORD);
      const headers = { cookie: session, "x-patchbay-team": world.team, "content-type": "application/json" };
      const post = async (path: string, body: object) => {
        const res = await fetch(`${baseURL()}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
        expect(res.ok, `${path}: ${res.status}`).toBe(true);
        return (await res.json()) as { id: string; turn?: { status: string } };
      };
      const model = await post("/v1/connections", {
        connection_type: "sandbox_model",
        name: "Script model",
        credentials: {},
      });
      const conversation = await post("/v1/agent/conversations", {
        model_connection_id: model.id,
        message: "report please",
      });
      const note = await post(`/v1/agent/conversations/${conversation.id}/messages`, {
        message: "note: Quarterly review on Monday",
      });
      expect(note.turn?.status).toBe("waiting_approval");
      return conversation.id;
    })();
  conversationsMade.set(world.team, made);
  return made;
};

export const PAGES: PageEntry[] = [
  {
    name: "sign-in",
    path: () => "/sign-in",
    public: true,
    ready: (p) => expect(p.getByRole("button", { name: "Sign in" })).toBeVisible(),
  },
  {
    name: "overview",
    path: (w) => `/${w.team}`,
    ready: (p) => expect(p.getByTestId("credit-gauge").or(p.getByRole("heading", { level: 1 }))).toBeVisible(),
  },
  {
    name: "connections",
    path: (w) => `/${w.team}/connections`,
    ready: (p) => expect(p.getByRole("table").or(p.getByRole("list")).first()).toBeVisible(),
    states: [
      {
        name: "new connection dialog",
        reach: (p) =>
          p
            .getByRole("button", { name: "New connection" })
            .click()
            .then(() => expect(p.getByRole("dialog")).toBeVisible()),
      },
    ],
  },
  {
    name: "connection page",
    path: (w) => `/${w.team}/connections/${w.connection}`,
    ready: (p) => expect(p.getByRole("heading", { name: "What uses it" })).toBeVisible(),
  },
  {
    name: "clients",
    path: (w) => `/${w.team}/clients`,
    ready: (p) => expect(p.getByRole("row").nth(2)).toBeVisible(),
  },
  {
    name: "client page",
    path: (w) => `/${w.team}/clients/~none`,
    // The connections' rows, not just the heading: on a busy machine axe otherwise met the table
    // still loading, a scrollable region with nothing in it to focus.
    ready: (p) =>
      expect(p.getByRole("grid", { name: "Connections of this client" }).getByRole("row").nth(1)).toBeVisible(),
  },
  {
    name: "auth links",
    path: (w) => `/${w.team}/auth-links`,
    ready: (p) => expect(p.getByRole("heading", { name: "Recent links" })).toBeVisible(),
  },
  {
    name: "logs",
    path: (w) => `/${w.team}/logs`,
    ready: tableRows,
    states: [
      {
        name: "log detail",
        reach: (p) =>
          p
            .getByRole("row")
            .nth(2)
            .click()
            .then(() => expect(p.getByRole("dialog", { name: /^Log / })).toContainText("Status")),
      },
    ],
  },
  { name: "ledger", path: (w) => `/${w.team}/ledger`, ready: tableRows },
  {
    name: "operations",
    path: (w) => `/${w.team}/operations`,
    ready: tableRows,
    states: [
      {
        name: "operation detail",
        reach: (p) =>
          p
            .getByRole("row")
            .nth(2)
            .click()
            .then(() => expect(p.getByRole("dialog")).toContainText("Input fields")),
      },
    ],
  },
  {
    name: "approvals",
    path: (w) => `/${w.team}/approvals`,
    ready: withPendingApprovals,
    states: [
      {
        name: "approval detail",
        reach: (p) =>
          p
            .getByRole("row")
            .nth(2)
            .click()
            .then(() => expect(approvalPanel(p).getByRole("button", { name: "Approve and run" })).toBeVisible()),
      },
      {
        // Its primary action hovered: a hovered button keeps its contrast too.
        name: "approve confirmation (its action hovered)",
        reach: async (p) => {
          await p.getByRole("row").nth(2).click();
          await approvalPanel(p).getByRole("button", { name: "Approve and run" }).click();
          const dialog = p.getByRole("dialog", { name: "Approve and run this write?" });
          await expect(dialog).toBeVisible();
          await dialog.getByRole("button", { name: "Approve and run" }).hover();
        },
      },
    ],
  },
  {
    name: "workflows",
    path: (w) => `/${w.team}/workflows`,
    ready: async (p) => {
      await withWorkflow();
      await p.reload();
      await expect(
        p.getByRole("grid", { name: "Workflows" }).getByRole("row").filter({ hasText: "Weekly sessions note" }),
      ).toBeVisible();
    },
  },
  {
    name: "workflow page",
    path: (w) => `/${w.team}/workflows`,
    ready: async (p) => {
      await p.goto(`/${world.team}/workflows/${await withWorkflow()}`);
      await expect(runsGrid(p).getByRole("row").nth(1)).toContainText("Succeeded");
    },
    states: [
      {
        name: "run detail",
        reach: (p) =>
          runsGrid(p)
            .getByRole("row")
            .nth(1)
            .click()
            .then(() => expect(p.getByRole("dialog", { name: /^Run / }).getByTestId("run-node")).toHaveCount(3)),
      },
      {
        name: "rebind dialog",
        reach: (p) =>
          p
            .getByRole("button", { name: "Rebind", exact: true })
            .click()
            .then(() => expect(p.getByRole("dialog", { name: "Rebind to another connection" })).toBeVisible()),
      },
    ],
  },
  {
    name: "workflow editor",
    path: (w) => `/${w.team}/workflows`,
    ready: async (p) => {
      await p.goto(`/${world.team}/workflows/${await withWorkflow()}/edit`);
      await expect(p.getByTestId("node-card")).toHaveCount(3);
    },
    states: [
      {
        name: "save problems and the schedule's error",
        reach: async (p) => {
          await p.getByLabel("Cron expression", { exact: true }).fill("0 25 * * *");
          await expect(p.getByTestId("schedule-preview")).toContainText("schedule:");
          await p.getByRole("button", { name: "Save changes" }).click();
          await expect(p.getByTestId("save-problems")).toBeVisible();
        },
      },
      {
        name: "a loop, a condition and an approval step",
        reach: async (p) => {
          const node = p.getByRole("group", { name: /^Node 3/ });
          await node.getByLabel("Ask for approval before writing").check();
          await node.getByLabel("For each row of…").selectOption({ label: "Another list: type its reference…" });
          await node.getByLabel("The list's reference").fill("{{nodes.report.output.rows}}");
          await node.getByRole("button", { name: "Add a condition" }).click();
          const row = node.getByRole("group", { name: "Condition 1" });
          await row.getByLabel("Field").selectOption({ label: "Another value: type a reference…" });
          await row.getByLabel("Condition 1: the reference to compare").fill("{{item.value}}");
          await row.getByLabel("Operator").selectOption("gte");
          await row.getByLabel("Value").fill("500");
          await expect(node.getByTestId("condition-preview")).toContainText("Only the rows where");
        },
      },
    ],
  },
  {
    name: "workflow from a template",
    path: (w) => `/${w.team}/workflows/new?template=sandbox_daily_note`,
    ready: (p) => expect(p.getByTestId("write-note")).toBeVisible(),
  },
  {
    name: "agent",
    path: (w) => `/${w.team}/agent`,
    ready: async (p) => {
      await withConversation();
      await p.reload();
      await expect(p.getByRole("list", { name: "Conversations" }).getByRole("link").first()).toContainText("Yours");
    },
  },
  {
    name: "agent: new conversation",
    path: (w) => `/${w.team}/agent/new`,
    ready: async (p) => {
      await withConversation();
      await p.reload();
      await expect(p.getByRole("group", { name: "Connections it may use" })).toBeVisible();
    },
  },
  {
    name: "agent: conversation",
    path: (w) => `/${w.team}/agent`,
    ready: async (p) => {
      await p.goto(`/${world.team}/agent/${await withConversation()}`);
      await expect(p.getByRole("button", { name: "Approve and run" })).toBeVisible();
      await expect(p.getByTestId("agent-reply").first()).toContainText("sessions");
    },
    states: [
      {
        name: "what the write would write",
        reach: (p) =>
          p
            .getByText("What it would write", { exact: true })
            .click()
            .then(() => expect(p.getByRole("region", { name: "What it would write" })).toBeVisible()),
      },
    ],
  },
  {
    name: "settings: members",
    path: (w) => `/${w.team}/settings/members`,
    ready: (p) => expect(p.getByRole("list", { name: "Members" })).toBeVisible(),
  },
  {
    name: "settings: API keys",
    path: (w) => `/${w.team}/settings/api-keys`,
    ready: (p) => expect(p.getByRole("table", { name: "API keys" })).toBeVisible(),
  },
  {
    name: "settings: MCP servers",
    path: (w) => `/${w.team}/settings/mcp-servers`,
    ready: async (p) => {
      await expect(p.getByRole("switch", { name: "Require another member to approve a request" })).toBeVisible();
      await expect(p.getByRole("button", { name: "Revoke Claude", exact: true })).toBeVisible();
    },
    states: [
      {
        name: "an AI client's steps open",
        reach: (p) =>
          p
            .locator("summary", { hasText: "VS Code" })
            .click()
            .then(() => expect(p.getByLabel(".vscode/mcp.json", { exact: true })).toBeVisible()),
      },
    ],
  },
  {
    name: "settings: webhooks",
    path: (w) => `/${w.team}/settings/webhooks`,
    ready: (p) => expect(p.getByRole("heading", { name: "Low-credits alert" })).toBeVisible(),
  },
  {
    name: "settings: audit log",
    path: (w) => `/${w.team}/settings/audit-log`,
    ready: (p) => expect(p.getByRole("table", { name: "Audit log" })).toBeVisible(),
  },
  {
    name: "settings: data retention",
    path: (w) => `/${w.team}/settings/data-retention`,
    ready: (p) => expect(p.getByTestId("retention-log-days")).toBeVisible(),
  },
  {
    name: "settings: your sessions",
    path: (w) => `/${w.team}/settings/sessions`,
    ready: async (p) => {
      await expect(p.getByRole("button", { name: "Sign out everywhere" })).toBeVisible();
      await expect(p.getByRole("list", { name: "Apps you allowed" })).toBeVisible();
    },
    states: [
      {
        // Where the pointer was left is chance (CI once found it over the dialog's danger button,
        // then rose-500 under white text); hovering the action makes that case the checked one.
        name: "confirm dialog (its action hovered)",
        reach: async (p) => {
          await p.getByRole("button", { name: "Sign out everywhere" }).click();
          const dialog = p.getByRole("dialog", { name: "Sign out everywhere?" });
          await expect(dialog).toBeVisible();
          await dialog.getByRole("button", { name: "Sign out everywhere" }).hover();
        },
      },
      {
        name: "revoke app confirmation",
        reach: (p) =>
          p
            .getByRole("button", { name: "Revoke Claude on Claude Desktop" })
            .click()
            .then(() => expect(p.getByRole("dialog", { name: "Revoke Claude?" })).toBeVisible()),
      },
    ],
  },
  {
    name: "connect page",
    path: (w) => w.connectPath,
    public: true,
    ready: (p) => expect(p.getByRole("button", { name: /^Continue/ })).toBeVisible(),
  },
  {
    name: "invite page",
    path: (w) => w.invitePath,
    public: true,
    ready: (p) => expect(p.getByRole("heading", { level: 1 })).toBeVisible(),
  },
  {
    name: "OAuth consent page",
    path: (w) => w.consentPath,
    ready: (p) => expect(p.getByRole("button", { name: "Allow", exact: true })).toBeVisible(),
  },
  {
    name: "OAuth error page",
    path: () => "/oauth/authorize?response_type=code&client_id=ocl_unknown&code_challenge_method=S256",
    public: true,
    ready: (p) => expect(p.getByRole("heading", { level: 1, name: "This app is not known here" })).toBeVisible(),
  },
  {
    name: "docs index",
    path: () => "/docs",
    public: true,
    ready: (p) => expect(p.getByRole("heading", { level: 1 })).toBeVisible(),
  },
  {
    name: "connection types docs",
    path: () => "/docs/connections",
    public: true,
    ready: (p) => expect(p.getByRole("heading", { level: 1, name: "Connection types" })).toBeVisible(),
  },
  {
    name: "AI clients docs",
    path: () => "/docs/mcp",
    public: true,
    ready: (p) => expect(p.getByRole("heading", { level: 1, name: "Add Patchbay to your AI client" })).toBeVisible(),
  },
  {
    name: "webhooks docs",
    path: () => "/docs/webhooks",
    public: true,
    ready: (p) => expect(p.getByRole("heading", { level: 1 })).toBeVisible(),
  },
  {
    name: "API reference",
    path: () => "/docs/api",
    public: true,
    ready: (p) => expect(p.getByRole("heading", { level: 1 }).first()).toBeVisible(),
  },
];

// Each size is a fresh load of the page; the colour scheme is then switched in place (the
// dark theme is the prefers-color-scheme media query, which the page follows live) once the
// colours' CSS transitions have finished, so axe reads the settled colours of each scheme.
const SIZES = [
  { name: "1440", width: 1440, height: 900 },
  { name: "390", width: 390, height: 844 },
];
const SCHEMES = ["light", "dark"] as const;

/** Once every running CSS transition (colours fading to the new scheme) has finished. */
// Two frames first: a page's script that follows the colour scheme (Scalar's dark mode on
// /docs/api) runs on the media query's change event, in the next rendering step, not at once.
const settled = (page: Page) =>
  page.evaluate(async () => {
    for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r));
    await Promise.all(
      document
        .getAnimations()
        .filter((a) => a instanceof CSSTransition)
        .map((a) => a.finished.catch(() => undefined)),
    );
  });

const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];

type AxeViolation = { id: string; impact: string; help: string; nodes: { target: string[]; failureSummary: string }[] };

/** axe-core on the page as it is now; evaluated through the browser's debugging protocol, so the page's CSP does not stand in its way. */
async function axe(page: Page): Promise<AxeViolation[]> {
  // Once per load of the page: its four checks share it.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const result = await (
      window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }
    ).axe.run(document, {
      runOnly: { type: "tag", values: tags },
      resultTypes: ["violations"],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  }, WCAG_TAGS);
}

const describe = (where: string, violations: AxeViolation[]) =>
  violations.map(
    (v) =>
      `${where}: ${v.impact} ${v.id} ×${v.nodes.length} (${v.help}) at ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`,
  );

let world: World;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const team = await seedTeamWithPasswords({ name: "Accessible Co", members: 2 });
  const owner = team.users[0];
  const api = await apiAs(owner);
  const connections: string[] = [];
  for (const [type, name, credentials] of [
    ["sandbox_key", "Analytics key", { api_key: "sk-a11y" }],
    ["sandbox_whitelabel", "White-label app", { client_id: "c", client_secret: "s", refresh_token: "r" }],
  ] as const) {
    const made = await api.post("/v1/connections", { data: { connection_type: type, name, credentials } });
    expect(made.status()).toBe(200);
    connections.push(((await made.json()) as { id: string }).id);
  }
  const link = await (
    await api.post("/v1/connections/auth-link", { data: { connection_type: "sandbox_oauth", external_id: "client-7" } })
  ).json();
  await api.post("/v1/connections/auth-link", { data: { connection_type: "sandbox_oauth", is_private: true } });
  await cli(
    "activity",
    "simulate",
    "--team",
    team.id,
    "--workflow-runs",
    "40",
    "--mcp-calls",
    "60",
    "--agent-conversations",
    "5",
    "--copilot-uses",
    "5",
    "--days",
    "5",
  );
  const claude = await cli("mcp", "create", "--team", team.id, "--user", owner.id, "--name", "Claude Desktop");
  await cli("webhook", "create", "--team", team.id, "--url", "http://127.0.0.1:9/hooks");
  const session = await signInCookie(owner.email, PASSWORD);
  // An app the owner allowed by OAuth on that server: its card and Your connected apps list it.
  const { client_id } = await (
    await fetch(`${baseURL()}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        redirect_uris: ["http://127.0.0.1:9/cb"],
        client_name: "Claude",
        token_endpoint_auth_method: "none",
      }),
    })
  ).json();
  const consent = await fetch(`${baseURL()}/oauth/consent`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: session, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      response_type: "code",
      client_id,
      redirect_uri: "http://127.0.0.1:9/cb",
      // RFC 7636's example challenge: the code is never exchanged.
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
      decision: "allow",
      team_id: team.id,
      server: claude.json.id,
    }),
  });
  expect(consent.headers.get("location")).toMatch(/^http:\/\/127\.0\.0\.1:9\/cb\?code=/);
  const invite = await (
    await fetch(`${baseURL()}/api/dashboard/invites`, {
      method: "POST",
      headers: { cookie: session, "x-patchbay-team": team.id, "content-type": "application/json" },
      body: JSON.stringify({ email: "newcomer@a11y.example", role: "member" }),
    })
  ).json();
  await seed("charges", { team: team.id, charges: [{ credits: 3, type: "mcp" }] });
  // The same client asking again: the consent page it leads to.
  const asking = new URLSearchParams({
    response_type: "code",
    client_id,
    redirect_uri: "http://127.0.0.1:9/cb",
    state: "a11y",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
  });
  world = {
    consentPath: `/oauth/authorize?${asking}`,
    team: team.id,
    email: owner.email,
    connectPath: new URL(link.url).pathname,
    invitePath: new URL(invite.url).pathname,
    connection: connections[0],
  };
});

for (const entry of PAGES) {
  test(`${entry.name}: no WCAG A/AA violation, light and dark, 1440 and 390 px${entry.states?.length ? `, also with ${entry.states.map((s) => s.name).join(", ")}` : ""}`, async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const problems: string[] = [];
    // One context for the four variants (the worker's shared session in it).
    const context = await browser.newContext({ baseURL: baseURL() });
    const page = await context.newPage();
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.emulateMedia({ colorScheme: "light" });
      if (entry.public) await page.goto(entry.path(world));
      else await signInShared(page, world.email, entry.path(world));
      await entry.ready?.(page);
      const inEachScheme = async (where: string) => {
        for (const colorScheme of SCHEMES) {
          await page.emulateMedia({ colorScheme });
          await settled(page);
          problems.push(...describe(`${where} (${colorScheme} ${size.name})`, await axe(page)));
        }
      };
      await inEachScheme(entry.name);
      for (const state of entry.states ?? []) {
        await state.reach(page);
        await inEachScheme(`${entry.name} with ${state.name}`);
        await page.keyboard.press("Escape");
      }
    }
    await context.close();
    expect(problems).toEqual([]);
  });
}

/** The focused element's role, name-ish text and row index, as the keyboard left it. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const style = el ? getComputedStyle(el) : null;
    return {
      role: el?.getAttribute("role") ?? el?.tagName.toLowerCase() ?? null,
      label: el?.getAttribute("aria-label") ?? el?.textContent?.trim().slice(0, 60) ?? "",
      rowIndex: el?.getAttribute("aria-rowindex") ? Number(el.getAttribute("aria-rowindex")) : null,
      inDialog: !!el?.closest('[role="dialog"], dialog'),
      ring: !!style && (style.boxShadow !== "none" || (style.outlineStyle !== "none" && style.outlineWidth !== "0px")),
    };
  });

async function tabUntil(page: Page, done: (f: Awaited<ReturnType<typeof focused>>) => boolean, most = 40) {
  for (let i = 0; i < most; i++) {
    await page.keyboard.press("Tab");
    const f = await focused(page);
    if (done(f)) return f;
  }
  throw new Error("the keyboard never reached it");
}

test("keyboard: skip link, the logs grid row by row, its detail panel, and a dialog", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, world.email);
  await page.goto(`/${world.team}/logs`);
  await expect(page.getByRole("row").nth(3)).toBeVisible();

  // The first stop is the skip link; it lands on the main content.
  await page.keyboard.press("Tab");
  expect(await focused(page)).toMatchObject({ label: "Skip to main content" });
  await expect(page.getByRole("link", { name: "Skip to main content" })).toBeVisible();
  await page.keyboard.press("Enter");
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("main");

  // Tab reaches the grid's one row in the tab order, with a visible focus ring.
  const first = await tabUntil(page, (f) => f.role === "row");
  expect(first).toMatchObject({ rowIndex: 2, ring: true });
  // Arrow keys move between rows; End goes to the last loaded row (scrolled into view), Home back.
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowDown");
  expect((await focused(page)).rowIndex).toBe(5);
  await page.keyboard.press("ArrowUp");
  expect((await focused(page)).rowIndex).toBe(4);
  await page.keyboard.press("End");
  // The last loaded row is rendered only once the grid has scrolled to it: the focus follows then.
  await expect.poll(async () => (await focused(page)).rowIndex ?? 0).toBeGreaterThan(20);
  const last = await focused(page);
  // Its whole height (the grid is wider than the screen, so not its width): the grid ends on the
  // screen (it fills the window below the search and filters), and the row is not left under
  // the grid's bottom edge.
  const lastRow = page.locator(`[role="row"][aria-rowindex="${last.rowIndex}"]`);
  await expect(lastRow).toBeInViewport();
  const edges = await lastRow.evaluate((row) => ({
    row: row.getBoundingClientRect().bottom,
    grid: row.closest<HTMLElement>('[data-testid="data-table-scroll"]')!.getBoundingClientRect().bottom,
    window: window.innerHeight,
  }));
  expect(edges.row).toBeLessThanOrEqual(edges.grid);
  expect(edges.grid).toBeLessThanOrEqual(edges.window);
  await page.keyboard.press("Home");
  await expect.poll(async () => (await focused(page)).rowIndex).toBe(2);
  await page.keyboard.press("ArrowDown");

  // Enter opens the row's detail; the focus is in it and Tab keeps it there; Escape closes and returns to the row.
  await page.keyboard.press("Enter");
  const panel = page.getByRole("dialog", { name: /^Log / });
  await expect(panel).toContainText("Status");
  expect(await focused(page)).toMatchObject({ label: "Close log detail", inDialog: true });
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Tab");
    expect((await focused(page)).inDialog, `Tab ${i + 1} left the panel`).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
  expect(await focused(page)).toMatchObject({ role: "row", rowIndex: 3 });

  // A dialog: opened from its button by the keyboard, focus trapped inside, Escape returns it to the button.
  await page.goto(`/${world.team}/connections`);
  const opener = page.getByRole("button", { name: "New connection" });
  await opener.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  for (let i = 0; i < 15; i++) {
    await page.keyboard.press("Tab");
    expect((await focused(page)).inDialog, `Tab ${i + 1} left the dialog`).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  expect(await focused(page)).toMatchObject({ label: "New connection" });
});
