import { cli, seed, seedTeam } from "../fixtures";
import { raw } from "../support/hostile";
import { PASSWORD, seedDoors, type DoorWorld } from "./doors-world";
import type { Cursor, World } from "./requests";

// The data the fuzzer aims at, made with the suites' own helpers (e2e/support/seed.ts, the
// admin CLI) and the API: a team with logs of every source and several statuses, ledger
// entries, connections and auth links; a neighbour team and a second member whose data must
// stay out of reach. Then the real ids and next_cursors are read back through the API.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion

/** Values kept per name: a fixed count, so a replayed seed picks the same kind of value each time. */
const POOL = 20;

async function call(key: string, method: string, path: string, body?: unknown): Promise<Json> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await raw(method, path, { headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`seeding: ${method} ${path} → ${res.status} ${res.text.slice(0, 300)}`);
  return JSON.parse(res.text);
}

/** Up to POOL distinct values, spread over the whole list (not only the newest). */
function pool(values: (string | number | null | undefined)[]): string[] {
  const distinct = [...new Set(values.filter((v) => v !== null && v !== undefined).map(String))];
  if (distinct.length <= POOL) return distinct;
  return Array.from({ length: POOL }, (_, i) => distinct[Math.floor((i * distinct.length) / POOL)]);
}

const query = (pairs: [string, string][]) => (pairs.length ? `?${new URLSearchParams(pairs)}` : "");

async function everyPage(key: string, path: string, limit: number): Promise<Json[]> {
  const rows: Json[] = [];
  let cursor: string | null = null;
  do {
    const page: Json = await call(
      key,
      "GET",
      path + query([["limit", String(limit)], ...(cursor ? ([["cursor", cursor]] as [string, string][]) : [])]),
    );
    rows.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return rows;
}

const connectionBody = (n: number, isPrivate: boolean) => ({
  connection_type: "sandbox_key",
  name: `Fuzz ${n}`,
  credentials: { api_key: `sk_fuzz_${n}` },
  ...(isPrivate && { is_private: true }),
});
const linkBody = (n: number) => ({
  connection_type: "sandbox_oauth",
  external_id: `fuzz-ext-${n}`,
  redirect_url: `https://example.com/done?n=${n}`,
});
const bareLinkBody: Json = { connection_type: "sandbox_oauth" };

export async function seedWorld(
  doc: Json,
  dashboardGets: string[],
): Promise<{ world: World; doors: DoorWorld; summary: string }> {
  // Five members: the owner (the key and session most requests carry), a member, one whose
  // sessions a fuzzed "sign out everywhere" ends, and two the fuzzed requests may remove.
  const team = await seedTeam({ name: "Fuzz", plan: "team", members: 5, password: PASSWORD });
  const other = await seedTeam({ name: "Fuzz neighbour", plan: "team" });
  const [owner, member] = team.users;
  const neighbour = other.users[0];

  // 400 logs (workflow, MCP and agent runs; success, error, skipped) with 100 charges, the
  // simulator's mix (copilot charges too), and a few start/stop steps.
  await seed("bulkActivity", { team: team.id, count: 400 });
  await seed("bulkActivity", { team: other.id, count: 40 });
  const simulated = await cli(
    "activity",
    "simulate",
    "--team",
    team.id,
    "--workflow-runs",
    "5",
    "--mcp-calls",
    "10",
    "--agent-conversations",
    "3",
    "--copilot-uses",
    "5",
    "--days",
    "3",
    "--seed",
    "1",
  );
  if (simulated.code !== 0) throw new Error(`seeding: activity simulate → ${JSON.stringify(simulated.json)}`);
  for (const status of ["start", "stop"])
    await seed("logs", {
      team: team.id,
      startedAgo: [20, 80, 140],
      status,
      sourceType: "workflow",
      sourceId: "wf_fuzz_steps",
      runId: `run_fuzz_${status}`,
    });

  const kept: string[] = [];
  for (let n = 0; n < 6; n++)
    kept.push((await call(owner.key, "POST", "/v1/connections", connectionBody(n, n % 3 === 0))).id);
  const disposable: string[] = [];
  for (let n = 0; n < 30; n++)
    disposable.push((await call(owner.key, "POST", "/v1/connections", connectionBody(100 + n, false))).id);
  const hidden: string[] = [];
  for (let n = 0; n < 2; n++)
    hidden.push((await call(member.key, "POST", "/v1/connections", connectionBody(200 + n, true))).id);
  for (let n = 0; n < 2; n++)
    hidden.push((await call(neighbour.key, "POST", "/v1/connections", connectionBody(300 + n, false))).id);
  const links: string[] = [];
  const linkBodies = [linkBody(0), linkBody(1), linkBody(2), linkBody(3), bareLinkBody];
  for (const body of linkBodies) links.push((await call(owner.key, "POST", "/v1/connections/auth-link", body)).id);
  const neighbourLinkBody = linkBody(99);
  const neighbourLink = (await call(neighbour.key, "POST", "/v1/connections/auth-link", neighbourLinkBody))
    .id as string;

  const logs = await everyPage(owner.key, "/v1/logs", 100);
  const ledger = await everyPage(owner.key, "/v1/credits/logs", 1000);
  const connections = (await call(owner.key, "GET", "/v1/connections")) as unknown as Json[];
  const types = (await call(owner.key, "GET", "/v1/connections/types")) as unknown as Json[];
  const theirLogs = await everyPage(neighbour.key, "/v1/logs", 100);
  const theirLedger = await everyPage(neighbour.key, "/v1/credits/logs", 1000);

  const externalIds = pool(linkBodies.map((b) => b.external_id));
  const values: Record<string, string[]> = {
    log_id: pool(logs.map((l) => l.id)),
    connection_id: pool([...kept, ...externalIds]),
    auth_link_id: pool(links),
    operation_id: pool(logs.map((l) => l.operation_id)),
    source_id: pool(logs.map((l) => l.source.id)),
    source_run_id: pool(logs.map((l) => l.source.run_id)),
    started_after: pool(logs.map((l) => l.started_at)),
    started_before: pool(logs.map((l) => l.started_at)),
    service_id: pool(ledger.map((e) => e.service.id)),
    user_id: pool([...ledger.map((e) => e.user.id), owner.id, member.id]),
    created_after: pool(ledger.map((e) => e.created_at)),
    created_before: pool(ledger.map((e) => e.created_at)),
    external_id: externalIds,
    type: pool([...connections.map((c) => c.type), ...types.map((t) => t.type)]),
    connection_type: pool(types.map((t) => t.type)),
  };
  // Only what the neighbour (or the member, privately) has: names both teams use, such as the
  // seeded run ids, are not foreign.
  const theirs = (candidates: (string | null)[], ours: (string | null)[]) =>
    pool(candidates.filter((v) => !ours.includes(v)));
  const foreign: Record<string, string[]> = {
    log_id: pool(theirLogs.map((l) => l.id)),
    connection_id: hidden,
    auth_link_id: [neighbourLink],
    source_id: theirs(
      theirLogs.map((l) => l.source.id),
      logs.map((l) => l.source.id),
    ),
    source_run_id: theirs(
      theirLogs.map((l) => l.source.run_id),
      logs.map((l) => l.source.run_id),
    ),
    service_id: theirs(
      theirLedger.map((e) => e.service.id),
      ledger.map((e) => e.service.id),
    ),
    user_id: [neighbour.id],
    external_id: [neighbourLinkBody.external_id],
  };

  const doors = await seedDoors(team, other, kept.slice(0, 3), dashboardGets);
  const conversations = (await call(owner.key, "GET", "/v1/agent/conversations")).data as Json[];
  values.conversation_id = pool(conversations.map((c) => c.id));
  values.model_connection_id = [doors.modelConnectionId];
  values.connection_ids = pool(kept);

  const cursors = await harvestCursors(doc, owner.key, values);
  // Cursors the server signed for the neighbour: valid-looking, for positions in another team.
  for (const path of new Set(cursors.map((c) => c.path))) {
    const page = await call(neighbour.key, "GET", `${path}?limit=5`);
    if (page.next_cursor) cursors.push({ path, query: [["limit", "5"]], cursor: page.next_cursor });
  }
  const summary = `${conversations.length} agent conversations, ${doors.tools.length} MCP tools, ${Object.values(doors.ids).flat().length} dashboard ids, ${logs.length} logs, ${ledger.length} ledger entries, ${connections.length} connections, ${links.length} auth links, ${cursors.length} real cursors; a neighbour team with ${theirLogs.length} logs`;
  return {
    world: {
      key: owner.key,
      values,
      foreign,
      disposable,
      cursors,
      bodies: {
        "POST /v1/connections": [connectionBody(0, false), connectionBody(1, true)],
        "POST /v1/connections/auth-link": [linkBody(0), bareLinkBody],
        "POST /v1/agent/conversations": [
          { model_connection_id: doors.modelConnectionId, message: "Give me the sessions report" },
          { model_connection_id: doors.modelConnectionId, connection_ids: kept.slice(0, 2), message: "note: fuzz" },
        ],
        "POST /v1/agent/conversations/{conversation_id}/messages": [{ message: "report please" }, { message: "hello" }],
        "PATCH /v1/agent/conversations/{conversation_id}": [{ shared: true }, { shared: false }],
      },
    },
    doors,
    summary,
  };
}

/**
 * next_cursor of the first and second page of every list operation in the document, for no
 * filter and for each filter alone (every enum value and a few real values), with small pages.
 */
async function harvestCursors(doc: Json, key: string, values: Record<string, string[]>): Promise<Cursor[]> {
  const cursors: Cursor[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    const params: Json[] = (item.get?.parameters ?? []).filter((p: Json) => p.in === "query");
    if (!params.some((p) => p.name === "cursor")) continue;
    const filterSets: [string, string][][] = [[]];
    for (const p of params) {
      if (["cursor", "limit"].includes(p.name)) continue;
      const enums: string[] = p.schema?.enum ?? [];
      for (const v of [...enums, ...(values[p.name] ?? []).slice(0, 2)]) filterSets.push([[p.name, v]]);
    }
    for (const filters of filterSets) {
      let q: [string, string][] = [...filters, ["limit", "3"]];
      for (let page = 0; page < 2; page++) {
        const { next_cursor } = await call(key, "GET", path + query(q));
        if (!next_cursor) break;
        cursors.push({ path, query: q, cursor: next_cursor });
        q = [...filters, ["limit", "3"], ["cursor", next_cursor]];
      }
    }
    if (!cursors.some((c) => c.path === path)) throw new Error(`seeding: ${path} never had a next page`);
  }
  return cursors;
}
