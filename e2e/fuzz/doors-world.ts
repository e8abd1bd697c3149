import { cli, type SeededTeam } from "../fixtures";
import { raw, signInCookie } from "../support/hostile";

// What the doors beyond /v1 aim at (e2e/fuzz/doors.ts): the owner's and a member's dashboard
// sessions, a sandbox_model connection with a conversation and a pending approval (a `note:`
// write the sandbox model files), an MCP server with its token and its tools, an OAuth client,
// and a few of each dashboard object, whose ids are then read back from the dashboard's own
// lists, by the path segment that names them (`webhooks` for /api/dashboard/webhooks/{id}).

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion

export const PASSWORD = "correct horse battery staple";

export type DoorWorld = {
  teamId: string;
  otherTeamId: string;
  ownerCookie: string;
  memberCookie: string;
  /** A third member, signed in afresh for each sign-out-everywhere (DELETE /api/dashboard/sessions). */
  victim: { email: string };
  key: string;
  mcpToken: string;
  tools: { name: string; inputSchema: Json }[];
  oauth: { clientId: string; redirectUri: string };
  modelConnectionId: string;
  conversationId: string;
  linkTokens: string[];
  inviteTokens: string[];
  /** Webhook-trigger URL tokens of a workflow of the team (`pbwh_…`), when the world has one. */
  hookTokens?: string[];
  /** Real ids by the path segment before them; ids nothing may delete are left out. */
  ids: Record<string, string[]>;
  /** Every id above, and ids of the neighbour team. */
  anyIds: string[];
  /** Ids a fuzzed request must never remove or change (the fuzzer's own footing). */
  kept: string[];
};

async function call(
  headers: Record<string, string>,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Json | null; text: string }> {
  const h = { ...headers };
  if (body !== undefined) h["content-type"] = "application/json";
  const res = await raw(method, path, { headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  let json: Json | null = null;
  try {
    json = JSON.parse(res.text);
  } catch {
    json = null;
  }
  return { status: res.status, json, text: res.text };
}

async function must(headers: Record<string, string>, method: string, path: string, body?: unknown): Promise<Json> {
  const res = await call(headers, method, path, body);
  if (res.status >= 300) throw new Error(`seeding: ${method} ${path} → ${res.status} ${res.text.slice(0, 300)}`);
  return res.json ?? {};
}

/** Ids in a dashboard answer: every `id`, `*_id` and `*Id` string. */
function idsIn(v: unknown, out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(v)) v.forEach((x) => idsIn(x, out));
  else if (v && typeof v === "object")
    for (const [k, x] of Object.entries(v)) {
      if (typeof x === "string" && (k === "id" || /(_id|Id)$/.test(k)) && x.length < 200) out.add(x);
      else idsIn(x, out);
    }
  return out;
}

export async function seedDoors(
  team: SeededTeam,
  other: SeededTeam,
  keptConnections: string[],
  dashboardGets: string[],
): Promise<DoorWorld> {
  // The owner, a member, the one whose sessions a fuzzed "sign out everywhere" ends; the
  // others are the members fuzzed requests may remove or promote.
  const [owner, member, victim] = team.users;
  const bearer = { authorization: `Bearer ${owner.key}` };
  const ownerCookie = await signInCookie(owner.email, PASSWORD);
  const memberCookie = await signInCookie(member.email, PASSWORD);
  const origin = new URL(process.env.BASE_URL!).origin;
  const dash = { cookie: ownerCookie, "x-patchbay-team": team.id, origin, "sec-fetch-site": "same-origin" };

  const model = await must(bearer, "POST", "/v1/connections", {
    connection_type: "sandbox_model",
    name: "Fuzz model",
    credentials: {},
  });
  const conversation = await must(bearer, "POST", "/v1/agent/conversations", {
    model_connection_id: model.id,
    message: "Give me the sessions report for last week",
  });
  // A write the sandbox model files for approval: a pending approval to approve, reject and read.
  for (let n = 0; n < 3; n++)
    await call(bearer, "POST", "/v1/agent/conversations", {
      model_connection_id: model.id,
      connection_ids: keptConnections,
      message: `note: fuzz ${n}`,
    });

  const mcp = await cli(
    "mcp",
    "create",
    "--team",
    team.id,
    "--user",
    owner.id,
    "--name",
    "Fuzz MCP",
    "--connections",
    keptConnections.join(","),
  );
  if (mcp.code !== 0) throw new Error(`seeding: mcp create → ${JSON.stringify(mcp.json)}`);
  const mcpToken = mcp.json.token as string;
  const listed = await raw("POST", "/mcp", {
    headers: {
      authorization: `Bearer ${mcpToken}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  const tools = (JSON.parse(listed.text).result?.tools ?? []) as DoorWorld["tools"];
  if (!tools.length) throw new Error(`seeding: tools/list → ${listed.status} ${listed.text.slice(0, 300)}`);

  const redirectUri = "http://127.0.0.1:9/fuzz-callback";
  const client = await must({}, "POST", "/oauth/register", {
    redirect_uris: [redirectUri],
    client_name: "Fuzz client",
    token_endpoint_auth_method: "none",
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
  });

  // A few of each dashboard object, so ids of every kind exist (best effort: a refusal here is
  // the fuzzer's own business, reported, not fatal).
  const made: string[] = [];
  const tryMake = async (path: string, body: unknown) => {
    const res = await call(dash, "POST", path, body);
    if (res.status >= 300) console.log(`[fuzz] seeding ${path}: ${res.status} ${res.text.slice(0, 200)}`);
    return res.json ?? {};
  };
  for (let n = 0; n < 3; n++) {
    await tryMake("/api/dashboard/api-keys", { name: `fuzz key ${n}` });
    await tryMake("/api/dashboard/invites", { email: `fuzz-invite-${n}@example.com` });
    await tryMake("/api/dashboard/webhooks", {
      url: `https://example.com/fuzz-hook-${n}`,
      events: ["connection.created"],
    });
    const server = await tryMake("/api/dashboard/mcp-servers", {
      name: `fuzz server ${n}`,
      connection_ids: keptConnections,
    });
    if (server.id) await tryMake(`/api/dashboard/mcp-servers/${server.id}/tokens`, { name: `fuzz token ${n}` });
    made.push(String(server.id ?? ""));
  }
  // A webhook-triggered workflow: its URL's token is shown once, when it is saved.
  const hook = await tryMake("/api/dashboard/workflows", {
    name: "fuzz hook",
    trigger: "webhook",
    nodes: [{ id: "t", label: "T", operation_id: "utility.format_text", input: { template: "{{trigger.body.a}}" } }],
  });
  const hookTokens = typeof hook.webhook_url === "string" ? [hook.webhook_url.split("/").pop() ?? ""] : [];
  const links: string[] = [];
  for (let n = 0; n < 3; n++) {
    const link = await must(bearer, "POST", "/v1/connections/auth-link", { connection_type: "sandbox_oauth" });
    links.push(
      String(link.url ?? "")
        .split("/")
        .pop() ?? "",
    );
  }

  // Read back every id the dashboard lists, by the segment before {param} in the routes.
  const kept = new Set<string>([
    owner.id,
    member.id,
    victim.id,
    owner.keyId,
    mcp.json.id,
    model.id,
    conversation.id,
    team.id,
    ...keptConnections,
  ]);
  const ids: Record<string, Set<string>> = {};
  const add = (segment: string, values: Iterable<string>) => {
    const s = (ids[segment] ??= new Set());
    for (const v of values) if (!kept.has(v)) s.add(v);
  };
  const inviteTokens = new Set<string>();
  for (let pass = 0; pass < 2; pass++)
    for (const template of dashboardGets) {
      const segments = template.split("/");
      const fills = segments.map((s, i) => (s.startsWith("{") ? [...(ids[segments[i - 1]] ?? [])].slice(0, 3) : [s]));
      const paths = fills.reduce<string[]>((acc, options) => acc.flatMap((p) => options.map((o) => `${p}/${o}`)), [""]);
      for (const path of paths.map((p) => p.slice(1))) {
        if (path.includes("{")) continue;
        const res = await call(dash, "GET", path);
        if (res.status !== 200 || !res.json) continue;
        add(segments[segments.length - 1], idsIn(res.json.data ?? res.json));
        for (const m of res.text.matchAll(/\/invite\/([A-Za-z0-9_-]+)/g)) inviteTokens.add(m[1]);
      }
    }
  // Connections are named in bodies, never removed through these doors (the /v1 DELETE has its own).
  ids.connections = new Set(keptConnections);
  const anyIds = [...new Set([...Object.values(ids).flatMap((s) => [...s]), other.users[0].id, other.id])];
  return {
    teamId: team.id,
    otherTeamId: other.id,
    ownerCookie,
    memberCookie,
    victim: { email: victim.email },
    key: owner.key,
    mcpToken,
    tools,
    oauth: { clientId: String(client.client_id), redirectUri },
    modelConnectionId: String(model.id),
    conversationId: String(conversation.id),
    linkTokens: links.filter(Boolean),
    inviteTokens: [...inviteTokens],
    hookTokens,
    ids: Object.fromEntries(Object.entries(ids).map(([k, v]) => [k, [...v]])),
    anyIds,
    kept: [...kept].filter(Boolean),
  };
}
