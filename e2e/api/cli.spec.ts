import { randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import {
  test,
  expect,
  cliProcess as cli,
  cli as inProcess,
  cliText,
  apiAs,
  hostWith,
  seed,
  seedTeam,
} from "../fixtures";
import { root } from "../support/server";
import { runCli } from "@/lib/cli/run-cli";

// The operator's command line (CONTRACT §3): one JSON object on stdout, exit 0; bad input
// prints {"error": "..."} and exits 1. Effects are checked through the HTTP API. Every command
// runs here as the process an operator starts (`cli`), its success and its first refusal; a
// command's further bad inputs go through the same lib/cli/run-cli.ts in this worker
// (`inProcess`: the JSON and exit code that process would print), without a Node start each.

const unique = () => randomBytes(4).toString("hex");
const email = (label: string) => `${label}-${unique()}@test.patchbay.dev`;

/** A bad-input answer: exit code 1 and exactly {error: non-empty string}. */
function expectError(r: { code: number; json: unknown }, what: string) {
  expect(r.code, `${what}: ${JSON.stringify(r.json)}`).toBe(1);
  expect(Object.keys(r.json as object), what).toEqual(["error"]);
  expect(typeof (r.json as { error: unknown }).error, what).toBe("string");
  expect((r.json as { error: string }).error.length, what).toBeGreaterThan(0);
}

async function ok(...args: string[]) {
  const r = await cli(...args);
  expect(r.code, `${args.join(" ")}: ${JSON.stringify(r.json)}`).toBe(0);
  return r.json;
}

/** A command that only sets up what the test is about, run in this worker (`inProcess`). */
async function given(...args: string[]) {
  const r = await inProcess(...args);
  expect(r.code, `${args.join(" ")}: ${JSON.stringify(r.json)}`).toBe(0);
  return r.json;
}

/** A fresh team with an owner and a key, all through the CLI. */
async function cliTeam(flags: string[] = []): Promise<{
  team: { id: string; name: string; plan: string };
  user: { id: string };
  key: { id: string; key: string };
  api: APIRequestContext;
}> {
  const team = await ok("team", "create", "--name", `CLI ${unique()}`, ...flags);
  const user = await ok("user", "create", "--team", team.id, "--email", email("owner"), "--role", "owner");
  const key = await ok("apikey", "create", "--team", team.id, "--user", user.id);
  return { team, user, key, api: await apiAs({ key: key.key }) };
}

async function allPages(api: APIRequestContext, path: string, limit: number) {
  const out: { id: string | number; [k: string]: any }[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const res: APIResponse = await api.get(
      `${path}${path.includes("?") ? "&" : "?"}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    expect(res.status()).toBe(200);
    const body: { data: typeof out; has_more: boolean; next_cursor: string | null } = await res.json();
    out.push(...body.data);
    if (!body.has_more) return out;
    cursor = body.next_cursor;
  }
  throw new Error("too many pages");
}

test.describe("team create", () => {
  test("defaults to the team plan and prints {id, name, plan}", async () => {
    const name = `Acme ${unique()}`;
    const team = await ok("team", "create", "--name", name);
    expect(Object.keys(team).sort()).toEqual(["id", "name", "plan"]);
    expect(team).toMatchObject({ name, plan: "team" });
    expect(team.id).toEqual(expect.any(String));
    // Two teams with the same name are two teams.
    const again = await ok("team", "create", "--name", name);
    expect(again.id).not.toBe(team.id);
  });

  test("--plan free and --credits-limit show through GET /v1/credits (a CLI key works on a free team)", async () => {
    const { team, api } = await cliTeam(["--plan", "free", "--credits-limit", "1234"]);
    expect(team.plan).toBe("free");
    const res = await api.get("/v1/credits");
    expect(res.status()).toBe(200);
    expect(await res.json()).toMatchObject({
      tier: "free",
      credits_limit: 1234,
      credits_used: 0,
      credits_remaining: 1234,
    });
  });

  test("--plan pro and --plan team are accepted; the --name=value form works", async () => {
    expect((await ok("team", "create", `--name=Pro ${unique()}`, "--plan", "pro")).plan).toBe("pro");
    expect((await ok("team", "create", "--name", `Team ${unique()}`, "--plan=team")).plan).toBe("team");
  });

  test("--history-days limits GET /v1/logs to that window", async () => {
    const { team, api } = await cliTeam(["--history-days", "2"]);
    const sim = await ok(
      "activity",
      "simulate",
      "--team",
      team.id,
      "--workflow-runs",
      "10",
      "--mcp-calls",
      "20",
      "--agent-conversations",
      "0",
      "--copilot-uses",
      "0",
      "--days",
      "10",
      "--seed",
      "7",
    );
    const logs = await allPages(api, "/v1/logs", 100);
    const now = Math.floor(Date.now() / 1000);
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.length).toBeLessThan(sim.logs);
    for (const l of logs) expect(l.started_at).toBeGreaterThanOrEqual(now - 2 * 86_400 - 5);
    // The ledger is not truncated by plan (§4.9).
    expect((await allPages(api, "/v1/credits/logs", 1000)).length).toBe(sim.ledger_entries);
  });

  test("bad input exits 1 with {error}", async () => {
    expectError(await cli("team", "create", "--name", "X", "--plan", "enterprise"), "bad plan");
    expectError(
      await inProcess("team", "create", "--name", "X", "--credits-limit", "abc"),
      "non-numeric credits limit",
    );
    expectError(await inProcess("team", "create", "--name", "X", "--credits-limit", "-5"), "negative credits limit");
    expectError(await inProcess("team", "create", "--name", "X", "--history-days", "soon"), "bad history days");
    expectError(await inProcess("team", "create", "--name"), "--name without a value");
    expectError(await inProcess("team", "create", "--name", "X", "--colour", "red"), "unknown flag");
  });
});

test.describe("team set-plan", () => {
  test("prints {id, plan}; the plan shows as the tier and keys keep working", async () => {
    const team = await seedTeam();
    const api = await apiAs(team.users[0]);
    for (const plan of ["pro", "free", "team"]) {
      expect(await ok("team", "set-plan", "--team", team.id, "--plan", plan)).toEqual({ id: team.id, plan });
      const res = await api.get("/v1/credits");
      expect(res.status()).toBe(200);
      expect((await res.json()).tier).toBe(plan);
    }
  });

  test("bad input exits 1 with {error}", async () => {
    const team = await given("team", "create", "--name", `Plans ${unique()}`);
    expectError(await cli("team", "set-plan", "--team", team.id, "--plan", "gold"), "bad plan");
    expectError(await inProcess("team", "set-plan", "--team", "team_doesnotexist", "--plan", "pro"), "unknown team");
  });
});

test.describe("user create", () => {
  test("prints {id, email, role}; --role owner and member", async () => {
    const team = await given("team", "create", "--name", `Users ${unique()}`);
    const ownerEmail = email("owner");
    const owner = await ok("user", "create", "--team", team.id, "--email", ownerEmail, "--role", "owner");
    expect(Object.keys(owner).sort()).toEqual(["email", "id", "role"]);
    expect(owner).toMatchObject({ email: ownerEmail, role: "owner" });
    const member = await ok(
      "user",
      "create",
      "--team",
      team.id,
      "--email",
      email("member"),
      "--role",
      "member",
      "--password",
      "correct horse battery",
    );
    expect(member.role).toBe("member");
    const plain = await ok("user", "create", "--team", team.id, "--email", email("plain"));
    expect(["owner", "member"]).toContain(plain.role);
    expect(new Set([owner.id, member.id, plain.id]).size).toBe(3);
  });

  test("bad input exits 1 with {error}", async () => {
    const team = await given("team", "create", "--name", `Users ${unique()}`);
    for (const bad of ["not-an-email", "two words@test.patchbay.dev"]) {
      expectError(await cli("user", "create", "--team", team.id, "--email", bad), `email ${JSON.stringify(bad)}`);
    }
    expectError(
      await inProcess("user", "create", "--team", "team_doesnotexist", "--email", email("ghost")),
      "unknown team",
    );
    expectError(
      await inProcess("user", "create", "--team", team.id, "--email", email("r"), "--role", "admin"),
      "bad role",
    );
    expectError(await inProcess("user", "create", "--team", team.id), "missing --email");
  });
});

test.describe("apikey", () => {
  test("create prints {id, key} and the key works over HTTP for that team", async () => {
    const { team, user, key, api } = await cliTeam();
    expect(Object.keys(key).sort()).toEqual(["id", "key"]);
    expect(key.key.length).toBeGreaterThan(20);
    expect(key.key).not.toContain(key.id);
    const created = await api.post("/v1/connections", {
      data: { connection_type: "sandbox_key", name: "via CLI key", credentials: { api_key: "k" } },
    });
    expect(created.status(), await created.text()).toBe(200);
    // A second key of the same user sees the same (shared) data; keys are distinct.
    const second = await ok("apikey", "create", "--team", team.id, "--user", user.id);
    expect(second.key).not.toBe(key.key);
    expect(second.id).not.toBe(key.id);
    const seen = await (await (await apiAs({ key: second.key })).get("/v1/connections")).json();
    expect(seen.map((c: { id: string }) => c.id)).toEqual([(await created.json()).id]);
  });

  test("revoke prints {id, revoked: true}; the key then answers 401 and others keep working", async () => {
    const team = await seedTeam();
    const key = await ok("apikey", "create", "--team", team.id, "--user", team.users[0].id);
    const api = await apiAs({ key: key.key });
    const other = team.users[0];
    expect((await api.get("/v1/connections")).status()).toBe(200);
    expect(await ok("apikey", "revoke", "--id", key.id)).toEqual({ id: key.id, revoked: true });
    for (const path of ["/v1/connections", "/v1/credits", "/v1/logs"]) {
      const res = await api.get(path);
      expect(res.status(), path).toBe(401);
      expect(typeof (await res.json()).detail).toBe("string");
    }
    expect((await (await apiAs({ key: other.key })).get("/v1/connections")).status()).toBe(200);
    // Revoking again changes nothing.
    const again = await cli("apikey", "revoke", "--id", key.id);
    expect(again).toEqual({ code: 0, json: { id: key.id, revoked: true } });
    expect((await api.get("/v1/connections")).status()).toBe(401);
  });

  test("a key for a user of another team, or an unknown team or user, is refused", async () => {
    const [a, b] = await Promise.all([seedTeam(), seedTeam()]);
    expectError(await cli("apikey", "create", "--team", a.id, "--user", b.users[0].id), "user not in the team");
    expectError(
      await inProcess("apikey", "create", "--team", "team_doesnotexist", "--user", a.users[0].id),
      "unknown team",
    );
    expectError(await inProcess("apikey", "create", "--team", a.id, "--user", "user_doesnotexist"), "unknown user");
    expectError(await inProcess("apikey", "revoke", "--id", "key_doesnotexist"), "unknown key id");
    // None of that produced a key: the team's keys are still the seeded one only, which works.
    expect((await (await apiAs(a.users[0])).get("/v1/credits")).status()).toBe(200);
  });
});

test.describe("credits renew", () => {
  test("prints {billing_period_end}, resets usage, writes no ledger entry", async () => {
    const team = await seedTeam();
    const api = await apiAs(team.users[0]);
    const sim = await ok(
      "activity",
      "simulate",
      "--team",
      team.id,
      "--workflow-runs",
      "3",
      "--mcp-calls",
      "3",
      "--agent-conversations",
      "1",
      "--copilot-uses",
      "1",
      "--days",
      "1",
    );
    const before = await (await api.get("/v1/credits")).json();
    expect(before.credits_used).toBeGreaterThan(0);
    const ledgerBefore = await allPages(api, "/v1/credits/logs", 1000);
    expect(ledgerBefore.length).toBe(sim.ledger_entries);

    const renewed = await ok("credits", "renew", "--team", team.id);
    expect(Object.keys(renewed)).toEqual(["billing_period_end"]);
    expect(Number.isInteger(renewed.billing_period_end)).toBe(true);
    const now = Math.floor(Date.now() / 1000);
    expect(renewed.billing_period_end).toBeGreaterThan(now + 27 * 86_400);
    expect(renewed.billing_period_end).toBeLessThan(now + 32 * 86_400);

    const after = await (await api.get("/v1/credits")).json();
    expect(after).toEqual({
      ...before,
      credits_used: 0,
      credits_remaining: before.credits_limit,
      billing_period_end: renewed.billing_period_end,
    });
    expect((await allPages(api, "/v1/credits/logs", 1000)).map((e) => e.id)).toEqual(ledgerBefore.map((e) => e.id));
  });

  test("bad input exits 1 with {error}", async () => {
    expectError(await cli("credits", "renew", "--team", "team_doesnotexist"), "unknown team");
  });
});

test.describe("activity simulate", () => {
  test("prints {logs, ledger_entries} and exactly that data shows through the API", async () => {
    const team = await seedTeam({ members: 2 });
    const api = await apiAs(team.users[0]);
    const sim = await ok(
      "activity",
      "simulate",
      "--team",
      team.id,
      "--workflow-runs",
      "5",
      "--mcp-calls",
      "5",
      "--days",
      "3",
    );
    expect(Object.keys(sim).sort()).toEqual(["ledger_entries", "logs"]);
    expect(Number.isInteger(sim.logs) && sim.logs > 0).toBe(true);
    expect(Number.isInteger(sim.ledger_entries) && sim.ledger_entries > 0).toBe(true);

    const logs = await allPages(api, "/v1/logs", 100);
    const ledger = await allPages(api, "/v1/credits/logs", 1000);
    expect(logs.length).toBe(sim.logs);
    expect(ledger.length).toBe(sim.ledger_entries);

    // Spread over the last 3 days, newest first.
    const now = Math.floor(Date.now() / 1000);
    for (const l of logs) {
      expect(l.started_at).toBeGreaterThanOrEqual(now - 3 * 86_400 - 5);
      expect(l.started_at).toBeLessThanOrEqual(now + 5);
    }
    const starts = logs.map((l) => l.started_at);
    expect([...starts].sort((x, y) => y - x)).toEqual(starts);

    // §2.7: one ledger entry per workflow run, one log per node of it.
    const runIds = new Set(logs.filter((l) => l.source.type === "workflow").map((l) => l.source.run_id));
    expect(runIds.size).toBe(5);
    expect(ledger.filter((e) => e.service.type === "workflow")).toHaveLength(5);
    for (const runId of runIds) {
      const steps = logs.filter((l) => l.source.run_id === runId);
      expect(new Set(steps.map((l) => l.metadata.node_id)).size).toBe(steps.length);
      for (const s of steps)
        expect(s.metadata).toEqual(
          expect.objectContaining({
            node_id: expect.any(String),
            node_label: expect.any(String),
            retry_attempts: expect.any(Number),
          }),
        );
    }
    const mcpLogs = logs.filter((l) => l.source.type === "mcp");
    expect(mcpLogs).toHaveLength(5);
    for (const l of mcpLogs) {
      expect(l.metadata.tool_name).toEqual(expect.any(String));
      expect(l.source.run_id).toBeNull();
    }
    expect(ledger.filter((e) => e.service.type === "mcp")).toHaveLength(5);

    // The balance agrees with the ledger.
    const balance = await (await api.get("/v1/credits")).json();
    expect(balance.credits_used).toBe(ledger.reduce((n, e) => n + e.credits_used, 0));
  });

  test("only the requested kinds are written", async () => {
    const team = await seedTeam();
    const api = await apiAs(team.users[0]);
    const sim = await ok(
      "activity",
      "simulate",
      "--team",
      team.id,
      "--workflow-runs",
      "0",
      "--mcp-calls",
      "4",
      "--agent-conversations",
      "0",
      "--copilot-uses",
      "0",
    );
    expect(sim).toEqual({ logs: 4, ledger_entries: 4 });
    const logs = await allPages(api, "/v1/logs", 100);
    expect(logs.map((l) => l.source.type)).toEqual(["mcp", "mcp", "mcp", "mcp"]);
    const copilot = await ok(
      "activity",
      "simulate",
      "--team",
      team.id,
      "--workflow-runs",
      "0",
      "--mcp-calls",
      "0",
      "--agent-conversations",
      "0",
      "--copilot-uses",
      "2",
    );
    expect(copilot).toEqual({ logs: 0, ledger_entries: 2 });
    expect((await allPages(api, "/v1/credits/logs?service_type=copilot", 1000)).length).toBe(2);
    expect((await allPages(api, "/v1/logs", 100)).length).toBe(4);
  });

  test("only active workflows run: one deactivated by deleting its connection writes nothing", async () => {
    const team = await seedTeam();
    const api = await apiAs(team.users[0]);
    const conn = await (
      await api.post("/v1/connections", {
        data: { connection_type: "sandbox_key", name: "feed", credentials: { api_key: "sk-feed" } },
      })
    ).json();
    const used = await seed("workflow", { team: team.id, name: "Uses the feed", connections: [conn.id] });
    const other = await seed("workflow", { team: team.id, name: "Independent" });
    expect((await api.delete(`/v1/connections/${conn.id}`)).status()).toBe(200);
    expect(await seed("workflowState", { id: used.id })).toEqual({ active: false });
    const sim = await ok(
      "activity",
      "simulate",
      "--team",
      team.id,
      "--workflow-runs",
      "4",
      "--mcp-calls",
      "0",
      "--agent-conversations",
      "0",
      "--copilot-uses",
      "0",
    );
    expect(sim).toEqual({ logs: 4, ledger_entries: 4 });
    const logs = await allPages(api, "/v1/logs", 100);
    expect(new Set(logs.map((l) => l.source.id))).toEqual(new Set([other.id]));

    // With no active workflow at all, no run is written.
    const none = await seedTeam();
    const wf = await seed("workflow", { team: none.id, active: false });
    expect(
      await ok(
        "activity",
        "simulate",
        "--team",
        none.id,
        "--workflow-runs",
        "3",
        "--mcp-calls",
        "0",
        "--agent-conversations",
        "0",
        "--copilot-uses",
        "0",
      ),
    ).toEqual({ logs: 0, ledger_entries: 0 });
    expect(await seed("workflowState", { id: wf.id })).toEqual({ active: false });
  });

  test("mcp create refuses an unknown team or user, or a connection the user cannot use", async () => {
    const team = await seedTeam();
    expectError(
      await cli("mcp", "create", "--team", "team_nope", "--user", team.users[0].id, "--name", "X"),
      "unknown team",
    );
    expectError(
      await inProcess("mcp", "create", "--team", team.id, "--user", "user_nope", "--name", "X"),
      "unknown user",
    );
    expectError(
      await inProcess(
        "mcp",
        "create",
        "--team",
        team.id,
        "--user",
        team.users[0].id,
        "--name",
        "X",
        "--connections",
        "conn_nope",
      ),
      "unknown connection",
    );
    expectError(
      await inProcess("mcp", "create", "--team", team.id, "--user", team.users[0].id, "--name", " "),
      "blank name",
    );
  });

  test("bad input exits 1 with {error}", async () => {
    // Flag values are checked before the team is looked up.
    expectError(await cli("activity", "simulate", "--team", "team_doesnotexist"), "unknown team");
    expectError(
      await inProcess("activity", "simulate", "--team", "team_x", "--workflow-runs", "many"),
      "non-numeric count",
    );
    expectError(await inProcess("activity", "simulate", "--team", "team_x", "--days", "0"), "zero days");
  });
});

test.describe("commands and flags", () => {
  test("an unknown command exits 1 with {error}", async () => {
    expectError(await cli("frobnicate"), "unknown command");
    expectError(await inProcess("team", "explode", "--name", "x"), "unknown subcommand");
    expectError(await inProcess(), "no command");
  });

  test("--help prints usage of every command, and <command> --help of that one, with exit 0", async () => {
    const all = await cliText("--help");
    expect(all.code).toBe(0);
    const unknown = await cli("frobnicate");
    const names = /Commands: (.*)\. Add --help/.exec(unknown.json.error)![1].split(", ");
    expect(names.length).toBeGreaterThan(15);
    for (const name of names) expect(all.stdout, name).toContain(`npm run --silent cli -- ${name}`);
    expect(await cliText("help")).toEqual(all);
    expect(await cliText("-h")).toEqual(all);

    const one = await cliText("workflow", "create", "--help");
    expect(one.code).toBe(0);
    expect(one.stdout).toContain(
      "npm run --silent cli -- workflow create --team TEAM_ID --user USER_ID --name NAME --nodes JSON " +
        "[--schedule CRON] [--timezone IANA_ZONE] [--trigger webhook|event] [--events TYPE,…] [--inactive]",
    );
    expect(one.stdout).not.toContain("team create");
    // --help wins over every other flag, even ones that would be refused, and changes nothing.
    const withFlags = await cliText("team", "create", "--name", "x", "--bogus", "1", "--help");
    expect(withFlags.code).toBe(0);
    expect(withFlags.stdout).toContain("team create --name NAME [--plan free|pro|team]");
  });

  test("operation list prints the catalogue, built-in utilities with no connection type", async () => {
    const { operations } = await ok("operation", "list");
    for (const op of operations)
      expect(Object.keys(op).sort()).toEqual([
        "connection_types",
        "credits",
        "id",
        "kind",
        "requires_approval",
        "title",
      ]);
    const format = operations.find((op: { id: string }) => op.id === "utility.format_text");
    expect(format).toMatchObject({ kind: "read", connection_types: [], requires_approval: false });
    const note = operations.find((op: { id: string }) => op.id === "sandbox.set_note");
    expect(note).toMatchObject({ kind: "write", requires_approval: true, credits: 1 });
    expect(note.connection_types).toEqual(expect.arrayContaining(["sandbox_oauth", "sandbox_key"]));
    expect(new Set(operations.map((op: { id: string }) => op.id)).size).toBe(operations.length);
  });

  test("a missing required flag exits 1 with {error} naming it", async () => {
    const cases: [string[], string][] = [
      [["team", "create"], "name"],
      [["team", "set-plan", "--plan", "pro"], "team"],
      [["user", "create", "--email", "x@test.patchbay.dev"], "team"],
      [["apikey", "create", "--user", "user_x"], "team"],
      [["apikey", "revoke"], "id"],
      [["credits", "renew"], "team"],
      [["activity", "simulate"], "team"],
      [["mcp", "create", "--team", "team_x", "--user", "user_x"], "name"],
    ];
    for (const [i, [args, flag]] of cases.entries()) {
      const r = await (i === 0 ? cli : inProcess)(...args);
      expectError(r, args.join(" "));
      expect(r.json.error, args.join(" ")).toContain(flag);
    }
  });
});

test.describe("team list, user list, connection list", () => {
  test("print the ids the other commands take: every team, a team's people, its connections", async () => {
    // Each command's success runs as the process an operator starts; the setup, in this worker.
    const before = Math.floor(Date.now() / 1000) - 60;
    const team = await seedTeam({ name: `Listed ${unique()}` });
    const owner = team.users[0];
    const api = await apiAs(owner);
    const member = await given("user", "create", "--team", team.id, "--email", email("member"));

    const { teams } = await ok("team", "list");
    expect(teams.find((t: { id: string }) => t.id === team.id)).toEqual({
      id: team.id,
      name: expect.stringMatching(/^Listed /),
      plan: "team",
      members: 2,
      created_at: expect.any(Number),
    });
    const listed = teams.find((t: { id: string }) => t.id === team.id);
    expect(listed.created_at).toBeGreaterThan(before);
    // Oldest first: a team made now comes after this one.
    const later = await given("team", "create", "--name", `Later ${unique()}`);
    const ids = (await given("team", "list")).teams.map((t: { id: string }) => t.id);
    expect(ids.indexOf(later.id)).toBeGreaterThan(ids.indexOf(team.id));

    const { users } = await ok("user", "list", "--team", team.id);
    expect(users).toEqual([
      { id: owner.id, email: owner.email, name: null, role: "owner", joined_at: expect.any(Number) },
      { id: member.id, email: member.email, name: null, role: "member", joined_at: expect.any(Number) },
    ]);

    const post = async (data: object) => {
      const res = await api.post("/v1/connections", { data });
      expect(res.status(), await res.text()).toBe(200);
      return res.json();
    };
    const key = (name: string) => ({ connection_type: "sandbox_key", name, credentials: { api_key: `sk-${name}` } });
    const shared = await post(key("shared"));
    const mine = await post({ ...key("mine"), is_private: true });
    await seed("needsReauth", { connection: shared.id });
    const { connections } = await ok("connection", "list", "--team", team.id);
    // Each as the API shows it, plus whose private connection it is and whether it needs re-authorizing.
    const asApi = async (id: string) => ((await (await api.get(`/v1/connections/${id}`)).json()) as object[])[0];
    expect(connections).toEqual([
      { ...(await asApi(shared.id)), owner_user_id: null, needs_reauth: true },
      { ...(await asApi(mine.id)), owner_user_id: owner.id, needs_reauth: false },
    ]);
    expect(connections[1].is_private).toBe(true);

    // The listed ids are the ones the other commands take.
    const server = await given(
      "mcp",
      "create",
      "--team",
      team.id,
      "--user",
      users[0].id,
      "--name",
      "From the lists",
      "--connections",
      connections.map((c: { id: string }) => c.id).join(","),
    );
    expect(server.id).toMatch(/^mcp_/);
  });

  test("bad input exits 1 with {error}", async () => {
    for (const command of ["user", "connection"]) {
      const r = await cli(command, "list", "--team", "team_nope");
      expectError(r, `${command} list of an unknown team`);
      expect(r.json.error).toContain("team_nope");
      expectError(await inProcess(command, "list"), `${command} list without --team`);
    }
    expectError(await inProcess("team", "list", "--name", "x"), "team list takes no flag");
  });
});

test.describe("workflow create --help, workflow list --status", () => {
  test("--nodes is described with an example that works; --status lists the workflows of one badge", async () => {
    // Help as the process prints it (the "--help prints usage" test runs that process), in this worker.
    const help = await runCli(["workflow", "create", "--help"]);
    expect(help.code).toBe(0);
    for (const field of ['"id"', '"label"', '"operation_id"', '"connection_id"', '"input"', "{{nodes.<id>.output."])
      expect(help.stdout, field).toContain(field);
    expect(help.stdout).toContain("connection list --team TEAM_ID");

    // The example, run as printed with this team's ids in place of team_…, user_… and conn_….
    const team = await seedTeam();
    const api = await apiAs(team.users[0]);
    const conn = await (
      await api.post("/v1/connections", {
        data: { connection_type: "sandbox_key", name: "example", credentials: { api_key: "sk-example" } },
      })
    ).json();
    const example = help.stdout.slice(help.stdout.indexOf("Example"));
    const nodes = /--nodes '([\s\S]*?)'/.exec(example)![1].replace("conn_…", conn.id);
    const schedule = /--schedule "([^"]+)"/.exec(example)![1];
    const zone = /--timezone (\S+)/.exec(example)![1];
    const owner = ["--team", team.id, "--user", team.users[0].id];
    const scheduled = await given(
      ...["workflow", "create", ...owner, "--name", "Example", "--nodes", nodes],
      ...["--schedule", schedule, "--timezone", zone],
    );
    expect(scheduled).toEqual({
      id: expect.any(String),
      name: "Example",
      active: true,
      next_run_at: expect.any(Number),
      version: 1,
      trigger: { type: "schedule", schedule, timezone: zone },
    });
    const manual = await given("workflow", "create", ...owner, "--name", "By hand", "--nodes", nodes);
    expect(manual).toMatchObject({ active: true, next_run_at: null });
    const off = await given("workflow", "create", ...owner, "--name", "Off", "--nodes", nodes, "--inactive");
    expect(off).toMatchObject({ active: false });

    // The dashboard shows one Active, one Manual and one Inactive badge; --status lists as they do.
    const names = async (...flags: string[]) =>
      (await (flags.length ? given : ok)("workflow", "list", "--team", team.id, ...flags)).workflows.map(
        (w: { name: string }) => w.name,
      );
    expect((await names()).sort()).toEqual(["By hand", "Example", "Off"]);
    expect(await names("--status", "active")).toEqual(["Example"]);
    expect(await names("--status", "manual")).toEqual(["By hand"]);
    expect(await names("--status", "inactive")).toEqual(["Off"]);
    expectError(await inProcess("workflow", "list", "--team", team.id, "--status", "on"), "unknown status");
    const listHelp = (await runCli(["workflow", "list", "--help"])).stdout;
    expect(listHelp).toContain("[--status active|manual|inactive]");
    expect(listHelp).toContain("Manual when it has no schedule");
  });
});

test.describe("demo", () => {
  test("prints the address of the npm start serving the same data, else APP_URL", async () => {
    const dir = join(root, "e2e", ".artifacts", `cli-demo-${unique()}`);
    mkdirSync(dir, { recursive: true });
    const appUrl = "http://localhost:4321";
    const host = hostWith({
      ...process.env,
      DATA_DIR: dir,
      DATABASE_URL: `file:${join(dir, "app.db")}`,
      APP_URL: appUrl,
    });
    const record = (pid: number) =>
      writeFileSync(join(dir, "server.json"), JSON.stringify({ url: "http://127.0.0.1:4999", pid }));
    try {
      // No server has said where it runs: APP_URL.
      const first = await host.cli("demo");
      expect(first.code, JSON.stringify(first.json)).toBe(0);
      expect(first.json).toEqual({
        url: appUrl,
        email: "demo@patchbay.dev",
        password: expect.any(String),
        api_key: expect.any(String),
      });
      // A record left by a server that is gone (killed with -9): still APP_URL.
      record(spawnSync(process.execPath, ["-e", ""]).pid);
      expect((await host.cli("demo")).json.url).toBe(appUrl);
      // A running server's record wins (this worker stands for it); the sign-in is the same demo's.
      record(process.pid);
      expect((await host.cli("demo")).json).toEqual({ ...first.json, url: "http://127.0.0.1:4999" });
      expect((await runCli(["demo", "--help"])).stdout).toContain("./data/server.json");
    } finally {
      await host.close();
    }
  });
});
