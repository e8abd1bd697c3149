import { z } from "zod";
import { describeZodError, knownError } from "@/lib/errors/api-error";
import { migrate } from "@/lib/db/migrate";
import { PLANS } from "@/lib/teams/plans";
import { createTeam } from "@/lib/teams/create-team";
import { setTeamPlan } from "@/lib/teams/set-team-plan";
import { createUser } from "@/lib/users/create-user";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { simulateActivity } from "@/lib/activity/simulate-activity";
import { renewBillingPeriod } from "@/lib/credits/renew-billing-period";
import { ensureDemo } from "@/lib/demo/ensure-demo";
import { createMcpServer, createMcpToken } from "@/lib/mcp-servers/mcp-servers";
import { revokeSandboxConnection } from "@/lib/platforms/sandbox/revoke-sandbox-connection";
import { sandboxOutage } from "@/lib/platforms/sandbox/sandbox-outage";
import { checkConnection } from "@/lib/connections/health";
import { maintainHistory } from "@/lib/history/maintain-history";
import { runWithContext } from "@/lib/observability/request-context";
import { createWebhookEndpoint, listWebhookEndpoints } from "@/lib/webhooks/endpoints";
import { setLowCreditsPercent } from "@/lib/teams/set-low-credits";
import { WRITE_POLICIES } from "@/lib/schemas/write-policy";
import { approvalListJson } from "@/lib/approvals/approval-json";
import { APPROVAL_STATUS_VALUES } from "@/lib/schemas/approval-statuses";
import { approveApproval, rejectApproval } from "@/lib/approvals/decide-approval";
import { listApprovalsForCli, teamOfApproval } from "@/lib/approvals/list-approvals";
import { workflowNodesSchema } from "@/lib/schemas/workflows";
import { createWorkflow, rebindWorkflow } from "@/lib/workflows/save-workflow";
import { listWorkflowsForCli, teamOfWorkflow } from "@/lib/workflows/list-workflows";
import { workflowSummaryJson } from "@/lib/workflows/workflow-json";
import { WORKFLOW_STATES, workflowState } from "@/lib/workflows/workflow-state";
import { enqueueRun } from "@/lib/workflows/queue-run";
import { replayFailedRuns, replayRun } from "@/lib/workflows/replay";
import { provideWorkflowBuiltins } from "@/lib/auth-links/provide-builtins";
import { listVersions } from "@/lib/workflows/versions";
import { TRIGGER_EVENT_TYPES, webhookUrl } from "@/lib/workflows/triggers";
import { runAndWait } from "@/lib/workflows/runner";
import { availableOperations } from "@/lib/operations/operation-json";
import { listTeams } from "@/lib/teams/list-teams";
import { listTeamUsers } from "@/lib/members/list-team-users";
import { listTeamConnections } from "@/lib/connections/list-team-connections";
import { runningServerUrl } from "@/lib/server/running-server";

// The operator's command line (CONTRACT §3): every command prints exactly one JSON object on
// stdout and exits 0; bad input prints {"error": "..."} and exits 1.

/** Flags that are switches: present means true (`--private`). */
const SWITCHES = new Set(["private", "inactive", "wait", "end"]);

const count = z
  .string()
  .regex(/^\d+$/, "must be a whole number")
  .transform(Number)
  .refine(Number.isSafeInteger, "is too large");
const str = () => z.string({ error: "is required" }).min(1, "is empty");

type Command = {
  summary: string;
  details?: string;
  schema: z.ZodObject;
  run: (flags: unknown) => Promise<unknown>;
};

/**
 * A command: its run gets the flags as its schema parsed them, typed by that schema. `details`
 * (what it prints, what a flag's value looks like) shows under `<command> --help` only.
 */
function command<S extends z.ZodObject>(c: {
  summary: string;
  details?: string;
  schema: S;
  run: (flags: z.output<S>) => Promise<unknown>;
}): Command {
  return { summary: c.summary, details: c.details, schema: c.schema, run: (flags) => c.run(flags as z.output<S>) };
}

/** What `active` means in the CLI's output, beside the dashboard's Active / Manual / Inactive badges. */
const ACTIVE_HELP = `"active" is whether the workflow is switched on (--inactive: off). The dashboard's badge
splits the switched-on ones: Active when a schedule runs it, Manual when it has no schedule and
runs only when started (\`workflow run\`, Run now); Inactive when it is off. \`workflow list
--status active|manual|inactive\` lists the workflows of one badge.`;

const NODES_HELP = `--nodes is a JSON array of the workflow's steps, run in order. Each node is an object:
  "id"             unique in the workflow, 1-40 characters of a-z, 0-9 and _; later nodes refer to it
  "label"          what the dashboard shows for this step
  "operation_id"   an id of \`operation list\` (also /docs/operations), e.g. sandbox.report
  "connection_id"  a connection of the team of one of the operation's connection_types
                   (\`connection list --team TEAM_ID\`); left out for the built-in utility.* operations
  "input"          the operation's fields, as /docs/operations describes them (default {})
A string in "input" may hold {{nodes.<id>.output.<path>}} (an earlier node's output; a number
indexes a list: rows.0.date) and {{run.date.today}}, {{run.date.yesterday}},
{{run.date.last_7_days_start}} (dates in --timezone, UTC when none) or {{run.started_at}}.
A string that is exactly one reference keeps the value's type. At most WORKFLOW_MAX_NODES (50) nodes.
A node may also carry (CONTRACT §13; /docs/workflows has an example of each):
  "when"              run only when a condition holds, else skipped: {"left", "op", "right"} with op
                      eq ne gt gte lt lte contains not_contains exists not_exists, or {"all": [..]},
                      {"any": [..]}, {"not": ..}; e.g. {"left": "{{nodes.report.output.total}}",
                      "op": "lt", "right": 1000}
  "for_each"          "{{nodes.<id>.output.rows}}": run once per item (at most WORKFLOW_MAX_ITERATIONS,
                      500), with {{item}}, {{item.<field>}} and {{item_index}} in its input and "when"
  "continue_on_error" true: when it fails the run goes on, later nodes reading {"error"} as its output
  "approval"          "required" on a write: each write waits for a person's yes (\`approval list\`);
                      the run parks meanwhile, and \`workflow run --wait\` returns "waiting_approval"
The operation flow.stop ({"reason"}), usually with a "when", ends the run "stopped".

Example (a sandbox report, then a sentence made of its total):
  npm run --silent cli -- workflow create --team team_… --user user_… --name "Sessions" \\
    --schedule "0 9 * * *" --timezone Europe/Paris --nodes '[
      {"id": "report", "label": "Sessions", "operation_id": "sandbox.report", "connection_id": "conn_…",
       "input": {"metric": "sessions", "days": 7, "end_date": "{{run.date.yesterday}}"}},
      {"id": "sentence", "label": "Say it", "operation_id": "utility.format_text",
       "input": {"template": "{{nodes.report.output.total}} sessions in the 7 days to {{run.date.yesterday}}"}}]'

${ACTIVE_HELP}`;

const commands: Record<string, Command> = {
  "team create": command({
    summary: "Create a team (plan team unless given).",
    schema: z
      .object({
        name: str().max(200),
        plan: z.enum(PLANS, { error: `must be one of ${PLANS.join(", ")}` }).optional(),
        "credits-limit": count.optional(),
        "history-days": count.optional(),
      })
      .strict(),
    run: async (f) => {
      const team = await createTeam({
        name: f.name,
        plan: f.plan,
        creditsLimit: f["credits-limit"],
        historyDays: f["history-days"],
      });
      return { id: team.id, name: team.name, plan: team.plan };
    },
  }),
  "team list": command({
    summary: "List every team, oldest first: ids for the commands that take --team.",
    details: 'Prints {"teams": [{"id", "name", "plan", "members", "created_at"}]} (created_at in Unix seconds).',
    schema: z.object({}).strict(),
    run: async () => ({ teams: await listTeams() }),
  }),
  "team set-plan": command({
    summary: "Change a team's plan.",
    schema: z.object({ team: str(), plan: z.enum(PLANS, { error: `must be one of ${PLANS.join(", ")}` }) }).strict(),
    run: (f) => setTeamPlan(f.team, f.plan),
  }),
  "team set-low-credits": command({
    summary: "Set the remaining-credits percentage that sends credits.low.",
    schema: z
      .object({
        team: str(),
        percent: z
          .string()
          .regex(/^\d+$/, "must be a whole number from 0 to 100")
          .transform(Number)
          .refine((n) => n <= 100, "must be a whole number from 0 to 100"),
      })
      .strict(),
    run: (f) => setLowCreditsPercent(f.team, f.percent),
  }),
  "webhook create": command({
    summary: "Add a webhook endpoint; prints its signing secret once.",
    schema: z.object({ team: str(), url: str(), events: z.string().optional() }).strict(),
    run: async (f) => {
      const events =
        f.events === undefined
          ? undefined
          : f.events
              .split(",")
              .map((t: string) => t.trim())
              .filter(Boolean);
      if (events && events.length === 0) throw new Error("--events is empty: leave it out to receive every type.");
      const { endpoint, secret } = await createWebhookEndpoint(f.team, { url: f.url, events });
      return { id: endpoint.id, secret };
    },
  }),
  "webhook list": command({
    summary: "List a team's webhook endpoints.",
    schema: z.object({ team: str() }).strict(),
    run: async (f) => ({
      endpoints: (await listWebhookEndpoints(f.team)).map((e) => ({
        id: e.id,
        url: e.url,
        events: e.events,
        enabled: e.enabled,
      })),
    }),
  }),
  "user create": command({
    summary: "Add a user to a team (member unless --role owner).",
    schema: z
      .object({
        team: str(),
        email: str(),
        role: z.enum(["owner", "member"], { error: "must be owner or member" }).optional(),
        password: z.string().min(8, "needs at least 8 characters").optional(),
      })
      .strict(),
    run: (f) => createUser({ teamId: f.team, email: f.email, role: f.role, password: f.password }),
  }),
  "user list": command({
    summary: "List a team's people, owners first: ids for the commands that take --user.",
    details: 'Prints {"users": [{"id", "email", "name", "role", "joined_at"}]} (joined_at in Unix seconds).',
    schema: z.object({ team: str() }).strict(),
    run: async (f) => ({ users: await listTeamUsers(f.team) }),
  }),
  "connection list": command({
    summary: "List a team's connections, private ones included: ids for --connections and --nodes.",
    details:
      'Prints {"connections": [{"id", "type", "display_name", "external_id", "is_private", "created_at", ' +
      '"updated_at", "owner_user_id", "needs_reauth"}]}: each as GET /v1/connections/{id} shows it (times in ' +
      "milliseconds), plus the user whose private connection it is (null: shared with the team) and whether " +
      "it needs re-authorizing.",
    schema: z.object({ team: str() }).strict(),
    run: async (f) => ({ connections: await listTeamConnections(f.team) }),
  }),
  "connection check": command({
    summary: "Run a connection's identity call now and store its health (CONTRACT §12).",
    details:
      'Prints {"id", "health", "checked_at", "error"}: health is healthy, needs_reauth (the provider refused ' +
      "the credential) or unreachable (a timeout, a 5xx or a network error; error says which); checked_at in " +
      "Unix seconds. A change of health sends connection.health_changed.",
    schema: z.object({ id: str() }).strict(),
    run: (f) => checkConnection(null, f.id),
  }),
  "history maintain": command({
    summary: "Make the coming partitions and retire history past retention now (the hourly job's turn).",
    details:
      'Prints {"engine", "created", "dropped", "deleted"}: on PostgreSQL the partitions made ahead and those ' +
      "detached and dropped whole past LOG_RETENTION_DAYS (logs) or LEDGER_RETENTION_DAYS (ledger and usage); " +
      "deleted counts rows removed in batches (SQLite, or PostgreSQL's partition for rows older than every " +
      'dated one). "skipped": true when another instance holds the maintenance lock.',
    schema: z.object({}).strict(),
    run: () => maintainHistory(),
  }),
  "apikey create": command({
    summary: "Create an API key for a user; prints the key once.",
    schema: z.object({ team: str(), user: str(), name: z.string().optional() }).strict(),
    run: (f) => createApiKey({ teamId: f.team, userId: f.user, name: f.name, requireTeamPlan: false }),
  }),
  "apikey revoke": command({
    summary: "Revoke an API key.",
    schema: z.object({ id: str() }).strict(),
    run: (f) => revokeApiKey(f.id),
  }),
  "sandbox revoke": command({
    summary: "Revoke a sandbox connection at the sandbox provider.",
    schema: z.object({ connection: str() }).strict(),
    run: (f) => revokeSandboxConnection(f.connection),
  }),
  "sandbox outage": command({
    summary: "Take the sandbox provider down (or, with --end, back up) for a sandbox connection's account.",
    details:
      'Prints {"connection_id", "account", "down"}. While down, the sandbox API answers that account 503 ' +
      "temporarily_unavailable, as a real provider's outage: checks find the connection unreachable.",
    schema: z
      .object({
        connection: str(),
        end: z.enum(["true", "false"], { error: "takes no value (or true/false)" }).optional(),
      })
      .strict(),
    run: (f) => sandboxOutage(f.connection, f.end === "true"),
  }),
  "activity simulate": command({
    summary: "Write simulated logs and ledger entries, for load tests (not the demo).",
    schema: z
      .object({
        team: str(),
        "workflow-runs": count.optional(),
        "mcp-calls": count.optional(),
        "agent-conversations": count.optional(),
        "copilot-uses": count.optional(),
        days: count.refine((n) => n >= 1, "must be at least 1").optional(),
        seed: count.optional(),
      })
      .strict(),
    run: (f) =>
      simulateActivity(f.team, {
        workflowRuns: f["workflow-runs"],
        mcpCalls: f["mcp-calls"],
        agentConversations: f["agent-conversations"],
        copilotUses: f["copilot-uses"],
        days: f.days,
        seed: f.seed,
      }),
  }),
  "mcp create": command({
    summary: "Create an MCP server and a token for it.",
    schema: z
      .object({
        team: str(),
        user: str(),
        name: str().max(100, "must be at most 100 characters"),
        connections: z.string().optional(),
        private: z.enum(["true", "false"], { error: "takes no value (or true/false)" }).optional(),
        writes: z.enum(WRITE_POLICIES, { error: `must be one of ${WRITE_POLICIES.join(", ")}` }).optional(),
      })
      .strict(),
    run: async (f) => {
      const connectionIds = (f.connections ?? "")
        .split(",")
        .map((id: string) => id.trim())
        .filter(Boolean);
      const server = await createMcpServer({
        teamId: f.team,
        ownerUserId: f.user,
        name: f.name,
        isPrivate: f.private === "true",
        connectionIds,
        writePolicy: f.writes,
      });
      const { token } = await createMcpToken({ teamId: f.team, userId: f.user, role: null }, server.id);
      return { id: server.id, token };
    },
  }),
  "approval list": command({
    summary: "List a team's approval requests, newest first.",
    schema: z
      .object({
        team: str(),
        status: z
          .enum(APPROVAL_STATUS_VALUES, { error: `must be one of ${APPROVAL_STATUS_VALUES.join(", ")}` })
          .optional(),
      })
      .strict(),
    run: async (f) => ({ approvals: (await listApprovalsForCli(f.team, f.status)).map(approvalListJson) }),
  }),
  "approval approve": command({
    summary: "Approve a pending write; runs it once and prints the outcome.",
    schema: z
      .object({ id: str(), user: str(), note: z.string().max(1000, "must be at most 1000 characters").optional() })
      .strict(),
    run: async (f) => {
      // No dialog shows a state here: the CLI approves the account as it is when it runs (SECURITY.md).
      const decided = await approveApproval({ teamId: await teamOfApproval(f.id), userId: f.user }, f.id, f.note, {
        againstCurrent: true,
      });
      return { id: decided.id, status: decided.status };
    },
  }),
  "approval reject": command({
    summary: "Reject a pending write.",
    schema: z
      .object({ id: str(), user: str(), note: z.string().max(1000, "must be at most 1000 characters").optional() })
      .strict(),
    run: async (f) => {
      const decided = await rejectApproval({ teamId: await teamOfApproval(f.id), userId: f.user }, f.id, f.note);
      return { id: decided.id, status: decided.status };
    },
  }),
  "workflow create": command({
    summary: "Create a workflow (manual unless --schedule); switched on unless --inactive.",
    details: NODES_HELP,
    schema: z
      .object({
        team: str(),
        user: str(),
        name: str().max(200, "must be at most 200 characters"),
        nodes: str(),
        schedule: z.string().optional(),
        timezone: z.string().optional(),
        trigger: z
          .enum(["webhook", "event"], { error: "must be webhook or event (a schedule: --schedule)" })
          .optional(),
        events: z.string().optional(),
        inactive: z.enum(["true", "false"], { error: "takes no value (or true/false)" }).optional(),
      })
      .strict(),
    run: async (f) => {
      let raw: unknown;
      try {
        raw = JSON.parse(f.nodes);
      } catch (e) {
        throw new Error(`--nodes is not JSON: ${(e as Error).message}`);
      }
      const nodes = workflowNodesSchema.safeParse(raw);
      if (!nodes.success) throw new Error(`--nodes: ${describeZodError(nodes.error)}`);
      if (f.timezone !== undefined && f.schedule === undefined)
        throw new Error("--timezone goes with --schedule; a manual workflow's dates are in UTC.");
      if (f.trigger !== undefined && f.schedule !== undefined)
        throw new Error("--schedule is the schedule trigger; give it or --trigger, not both.");
      if (f.events !== undefined && f.trigger !== "event") throw new Error("--events goes with --trigger event.");
      if (f.trigger === "event" && !f.events?.trim())
        throw new Error(`--trigger event needs --events TYPE,… (of ${TRIGGER_EVENT_TYPES.join(", ")}).`);
      const row = await createWorkflow(
        { teamId: f.team, userId: f.user },
        {
          name: f.name,
          nodes: nodes.data,
          schedule: f.schedule ?? null,
          timezone: f.timezone ?? null,
          active: f.inactive !== "true",
          trigger: f.trigger,
          events: f.events
            ?.split(",")
            .map((e) => e.trim())
            .filter(Boolean),
        },
        { cli: true },
      );
      const { id, name, active, next_run_at, version, trigger } = workflowSummaryJson(row);
      return {
        id,
        name,
        active,
        next_run_at,
        version,
        trigger,
        ...(row.webhookToken && { webhook_url: webhookUrl(row.webhookToken) }),
      };
    },
  }),
  "workflow versions": command({
    summary: "List a workflow's versions, newest first.",
    details:
      'Prints {"versions": [{"version", "created_at", "created_by", "nodes"}]}: created_at in Unix seconds, created_by the user id (null for the CLI), nodes the count.',
    schema: z.object({ id: str() }).strict(),
    run: async (f) => ({
      versions: (await listVersions(await teamOfWorkflow(f.id), f.id)).map((v) => ({
        version: v.version,
        created_at: v.created_at,
        created_by: v.created_by,
        nodes: v.nodes.length,
      })),
    }),
  }),
  "workflow replay": command({
    summary: "Run a failed or stopped run again from its failed node (--from: another), on the definition it ran.",
    details: `The nodes before --from are not run again: their outputs come from the original run. A write that
succeeded is never sent twice, so --from must come after the last node whose write succeeded. Each run
is replayed at most once. Prints {"run_id", "replay_of"}; with --wait, the object of \`workflow run --wait\`
plus "replay_of".`,
    schema: z
      .object({
        run: str(),
        from: z.string().max(40, "must be at most 40 characters").optional(),
        wait: z.enum(["true", "false"], { error: "takes no value (or true/false)" }).optional(),
      })
      .strict(),
    run: async (f) => {
      const replay = await replayRun(f.run, { from: f.from });
      return f.wait === "true" ? { ...(await runAndWait(replay.run_id)), replay_of: replay.replay_of } : replay;
    },
  }),
  "workflow replay-failed": command({
    summary:
      "Replay every failed or stopped run of a workflow queued in [--from, --to) (Unix seconds), each at most once.",
    details:
      'Each from its failed node, as `workflow replay` does. Prints {"replayed": [{"run_id", "replay_of"}], "skipped": [{"run_id", "reason"}]}: a run already replayed, or one whose replay would send a write again, is skipped with the reason.',
    schema: z
      .object({
        id: str(),
        from: z.coerce.number({ error: "must be Unix seconds" }).int("must be Unix seconds").min(0),
        to: z.coerce.number({ error: "must be Unix seconds" }).int("must be Unix seconds").min(0),
      })
      .strict(),
    run: async (f) =>
      replayFailedRuns(await teamOfWorkflow(f.id), f.id, { from: f.from * 1000, to: f.to * 1000 }, null),
  }),
  "workflow list": command({
    summary: "List a team's workflows (--status: those of one of the dashboard's badges).",
    details: `Prints {"workflows": [{"id", "name", "active", "schedule", "timezone", "next_run_at", "version", "trigger"}]}.\n${ACTIVE_HELP}`,
    schema: z
      .object({
        team: str(),
        status: z.enum(WORKFLOW_STATES, { error: `must be one of ${WORKFLOW_STATES.join(", ")}` }).optional(),
      })
      .strict(),
    run: async (f) => ({
      workflows: (await listWorkflowsForCli(f.team))
        .filter((row) => f.status === undefined || workflowState(row) === f.status)
        .map(workflowSummaryJson),
    }),
  }),
  "workflow run": command({
    summary: "Start a workflow run (--wait: until it ends).",
    schema: z
      .object({ id: str(), wait: z.enum(["true", "false"], { error: "takes no value (or true/false)" }).optional() })
      .strict(),
    run: async (f) => {
      const { run_id } = await enqueueRun(await teamOfWorkflow(f.id), f.id, { userId: null, viaCli: true });
      return f.wait === "true" ? runAndWait(run_id) : { run_id };
    },
  }),
  "workflow rebind": command({
    summary: "Move a workflow's nodes from one connection to another.",
    schema: z.object({ id: str(), from: str(), to: str() }).strict(),
    run: async (f) => {
      const teamId = await teamOfWorkflow(f.id);
      const { row, nodesRebound } = await rebindWorkflow({ teamId, userId: null }, f.id, f.from, f.to);
      return { id: row.id, nodes_rebound: nodesRebound };
    },
  }),
  "operation list": command({
    summary: "List the operations catalogue (built-in utilities included).",
    schema: z.object({}).strict(),
    run: async () => ({
      operations: availableOperations().map((op) => ({
        id: op.id,
        title: op.title,
        kind: op.kind,
        connection_types: op.types,
        credits: op.credits,
        requires_approval: op.requiresApproval,
      })),
    }),
  }),
  "credits renew": command({
    summary: "Start a team's next billing period.",
    schema: z.object({ team: str() }).strict(),
    run: (f) => renewBillingPeriod(f.team),
  }),
  demo: command({
    summary: "Create the demo workspace if it is missing; prints how to sign in.",
    details:
      'Prints {"url", "email", "password", "api_key"}. "url" is where the `npm start` using the same ./data ' +
      "(DATA_DIR) serves, as it recorded in ./data/server.json; when none is running, APP_URL, else " +
      "http://localhost:$PORT (3000).",
    schema: z.object({}).strict(),
    run: async () => {
      const { url, email, password, api_key } = await ensureDemo();
      return { url: runningServerUrl() ?? url, email, password, api_key };
    },
  }),
};

function parseFlags(args: string[]): Record<string, string> {
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith("--"))
      throw new Error(`Unexpected argument ${JSON.stringify(arg)}; flags look like --name value.`);
    const [key, inline] = arg.slice(2).split(/=(.*)/s);
    if (inline !== undefined) flags[key] = inline;
    else if (SWITCHES.has(key)) flags[key] = "true";
    else if (i + 1 < args.length && !args[i + 1].startsWith("--")) flags[key] = args[++i];
    else throw new Error(`--${key} needs a value.`);
  }
  return flags;
}

/** What a flag's value looks like, where its name alone does not say. */
const PLACEHOLDERS: Record<string, string> = {
  team: "TEAM_ID",
  user: "USER_ID",
  connection: "CONNECTION_ID",
  connections: "CONNECTION_ID,…",
  from: "CONNECTION_ID",
  to: "CONNECTION_ID",
  events: "TYPE,…",
  nodes: "JSON",
  schedule: "CRON",
  timezone: "IANA_ZONE",
  percent: "0-100",
  "credits-limit": "N",
  "history-days": "N",
  "workflow-runs": "N",
  "mcp-calls": "N",
  "agent-conversations": "N",
  "copilot-uses": "N",
  days: "N",
  seed: "N",
};

const HELP_FLAGS = new Set(["--help", "-h"]);
const INVOCATION = "npm run --silent cli --";

/** One flag as usage shows it: `--plan free|pro|team`, `--private`, `--name NAME`; optional ones in brackets. */
function flagUsage(key: string, schema: z.ZodType): string {
  const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  const value = SWITCHES.has(key)
    ? ""
    : inner instanceof z.ZodEnum
      ? ` ${(inner.options as string[]).join("|")}`
      : ` ${PLACEHOLDERS[key] ?? key.toUpperCase().replace(/-/g, "_")}`;
  return schema.safeParse(undefined).success ? `[--${key}${value}]` : `--${key}${value}`;
}

function commandUsage(name: string, detailed = false): string {
  const { summary, details, schema } = commands[name];
  const flags = Object.entries(schema.shape as Record<string, z.ZodType>).map(([k, v]) => flagUsage(k, v));
  const usage = `${INVOCATION} ${[name, ...flags].join(" ")}\n  ${summary}`;
  return detailed && details ? `${usage}\n\n${details}` : usage;
}

/** Usage text (plain text, not JSON: it is read by a person, never parsed). */
function helpText(argv: string[]): string {
  const name = [argv.slice(0, 2).join(" "), argv[0]].find((n) => n !== undefined && n in commands);
  if (name)
    return `${commandUsage(name, true)}\n\nPrints one JSON object and exits 0; bad input prints {"error": "..."} and exits 1.\n`;
  return [
    `Usage: ${INVOCATION} <command> [flags]    (${INVOCATION} <command> --help for one command)`,
    "",
    ...Object.keys(commands).map((name) => commandUsage(name)),
    "",
    'Every command prints one JSON object on stdout and exits 0; bad input prints {"error": "..."} and exits 1.',
    "",
  ].join("\n");
}

async function main(argv: string[]) {
  const name = argv[0] === "demo" ? "demo" : argv.slice(0, 2).join(" ");
  const command = commands[name];
  if (!command)
    throw new Error(
      `Unknown command ${JSON.stringify(argv.slice(0, 2).join(" "))}. ` +
        `Commands: ${Object.keys(commands).join(", ")}. Add --help for usage.`,
    );
  const parsed = command.schema.safeParse(parseFlags(argv.slice(name.split(" ").length)));
  if (!parsed.success) {
    throw new Error(
      describeZodError(parsed.error)
        .replace(/(^|; )([a-z-]+): /g, "$1--$2: ")
        .replace(/Unrecognized key(s)? in object: /, "unknown flag(s): "),
    );
  }
  await migrate();
  // Audit events of these commands name the operator's command line as the actor.
  return runWithContext({ actor: { kind: "cli" } }, () => command.run(parsed.data));
}

/**
 * One command line, run: what the process prints on stdout and its exit code. `main.ts` is the
 * process; the test suite calls this in its own process (one Node per worker, not per command).
 */
export async function runCli(argv: string[]): Promise<{ code: 0 | 1; stdout: string }> {
  // `workflow run --wait` and `workflow replay --wait` may run the workflow here.
  provideWorkflowBuiltins();
  // `help` asks for help only as the first word (a team may be named "help"); --help and -h anywhere.
  if (argv[0] === "help" || argv.some((a) => HELP_FLAGS.has(a)))
    return { code: 0, stdout: helpText(argv.filter((a, i) => !HELP_FLAGS.has(a) && !(i === 0 && a === "help"))) };
  try {
    return { code: 0, stdout: `${JSON.stringify(await main(argv))}\n` };
  } catch (error) {
    // A deleted-meanwhile or unreachable database reads as the routes say it, not as Prisma's message.
    const known = knownError(error);
    const message = known
      ? String(typeof known.detail === "string" ? known.detail : JSON.stringify(known.detail))
      : String((error as { message?: unknown } | null | undefined)?.message ?? error);
    return { code: 1, stdout: `${JSON.stringify({ error: message })}\n` };
  }
}
