import type { APIResponse } from "@playwright/test";
import { test, expect, seed, seedTeam, cli, expectError, type SeededTeam } from "../fixtures";
import { isPostgres, startInstance } from "../support/instances";
import { requestContext } from "../support/request-context";
import { sessionAs } from "../support/session";

// Issue 51 §4: on PostgreSQL a read-only /v1 GET whose key this process confirmed before starts
// its read while the key is confirmed again (lib/api/with-auth.ts). Whatever an instance
// remembers, every request is decided by the database as it is now: a key revoked, a member
// removed or demoted, a plan changed, on one instance or through the CLI, is seen by the very next
// request on another instance that served the same caller a moment before.

const PASSWORD = "correct horse battery staple";
let second: Awaited<ReturnType<typeof startInstance>>;
test.beforeAll(async () => {
  second = await startInstance();
});
test.afterAll(async () => {
  await second?.stop();
  expect(second.log()).not.toMatch(/unhandled error/);
});

/** Each instance's base URL: the suite's own server, then the second. */
const instances = () => [process.env.BASE_URL!, second.baseUrl];

const get = (base: string, path: string, key: string) =>
  fetch(base + path, { headers: { authorization: `Bearer ${key}` } });

/** The read-only routes that may start before their key is confirmed. */
const READS = (logId: string) => ["/v1/connections", "/v1/logs", `/v1/logs/${logId}`, "/v1/credits/logs"];

/**
 * Serves `key` twice on every read of every instance (the second request is the one that starts
 * early, on PostgreSQL: its Server-Timing says when the confirmation came in).
 */
async function warm(key: string, logId: string) {
  for (const base of instances())
    for (const path of READS(logId))
      for (let i = 0; i < 2; i++) {
        const res = await get(base, path, key);
        expect(res.status, `${base}${path}: ${await res.text()}`).toBe(200);
        if (i === 1) expect(/confirm;dur=/.test(res.headers.get("server-timing") ?? ""), path).toBe(isPostgres());
      }
}

async function expect401(res: Response, ...fragments: string[]) {
  const body = await res.text();
  expect(res.status, body).toBe(401);
  for (const fragment of fragments) expect(JSON.parse(body).detail).toContain(fragment);
}

async function teamWithLog(options: Parameters<typeof seedTeam>[0] = {}) {
  const team = await seedTeam({ password: PASSWORD, ...options });
  const { ids } = await seed("logs", { team: team.id, startedAgo: [3 * 86_400] });
  return { team, logId: ids[0] as string };
}

const owner = (team: SeededTeam, base = process.env.BASE_URL!) =>
  sessionAs(team.users[0].email, PASSWORD, team.id, base);

test("a key revoked through the CLI is refused by the very next request on both instances, which had both served it", async () => {
  const { team, logId } = await teamWithLog({ members: 2 });
  await warm(team.users[0].key, logId);
  await warm(team.users[1].key, logId);
  expect(await cli("apikey", "revoke", "--id", team.users[0].keyId)).toEqual({
    code: 0,
    json: { id: team.users[0].keyId, revoked: true },
  });
  for (const base of instances().reverse())
    for (const path of READS(logId)) {
      await expect401(await get(base, path, team.users[0].key), "revoked");
      // The team's other key is untouched.
      expect((await get(base, path, team.users[1].key)).status, path).toBe(200);
    }
});

test("a key revoked in the dashboard of one instance is refused by the very next request on the other", async () => {
  const { team, logId } = await teamWithLog();
  await warm(team.users[0].key, logId);
  const dashboard = await owner(team);
  const revoked = await dashboard.delete(`/api/dashboard/api-keys/${team.users[0].keyId}`);
  expect(revoked.status(), await revoked.text()).toBe(200);
  for (const path of READS(logId)) await expect401(await get(second.baseUrl, path, team.users[0].key), "revoked");
});

test("a member removed on one instance: their key and their session end on the very next request on the other", async () => {
  const { team, logId } = await teamWithLog({ members: 2 });
  const removed = team.users[1];
  await warm(removed.key, logId);
  const theirs = await sessionAs(removed.email, PASSWORD, team.id, second.baseUrl);
  expect((await theirs.get("/api/dashboard/members")).status()).toBe(200);
  expect((await theirs.get(`/v1/logs/${logId}`)).status()).toBe(200);

  const dashboard = await owner(team);
  const res = await dashboard.delete(`/api/dashboard/members/${removed.id}`);
  expect(res.status(), await res.text()).toBe(200);
  expect((await res.json()).api_keys_revoked).toBe(1);

  for (const path of READS(logId)) await expect401(await get(second.baseUrl, path, removed.key), "revoked");
  await expectError(await theirs.get("/api/dashboard/members"), 404, "not a member");
  await expectError(await theirs.get(`/v1/logs/${logId}`), 404, "not a member");
});

test("a role changed on one instance holds on the very next request on the other, both ways", async () => {
  const team = await seedTeam({ password: PASSWORD, members: 2 });
  const member = team.users[1];
  const theirs = await sessionAs(member.email, PASSWORD, team.id, second.baseUrl);
  const ownersOnly = () => theirs.get("/api/dashboard/audit");
  await expectError(await ownersOnly(), 403, "Only team owners");

  const dashboard = await owner(team);
  const role = (r: string) => dashboard.patch(`/api/dashboard/members/${member.id}`, { data: { role: r } });
  const check = async (res: APIResponse) => expect(res.status(), await res.text()).toBe(200);
  await check(await role("owner"));
  await check(await ownersOnly());
  await check(await ownersOnly());
  await check(await role("member"));
  await expectError(await ownersOnly(), 403, "Only team owners");
});

test("a plan changed through the CLI narrows the history on the very next request on an instance that served the key", async () => {
  // A log 3 days old: inside the team plan's 30 days, outside the free plan's 1.
  const { team, logId } = await teamWithLog({ plan: "team" });
  await warm(team.users[0].key, logId);
  expect((await cli("team", "set-plan", "--team", team.id, "--plan", "free")).code).toBe(0);
  for (const base of instances()) {
    const one = await get(base, `/v1/logs/${logId}`, team.users[0].key);
    expect(one.status, await one.clone().text()).toBe(404);
    expect((await one.json()).detail.history_days).toBe(1);
    const page = await get(base, "/v1/logs", team.users[0].key);
    expect((await page.json()).data).toEqual([]);
  }
});

test("a key that was never valid, or a malformed header, is refused on both instances", async () => {
  const { team, logId } = await teamWithLog();
  await warm(team.users[0].key, logId);
  const anon = await requestContext();
  for (const base of instances())
    for (const path of READS(logId)) {
      await expect401(await get(base, path, `${team.users[0].key.slice(0, -4)}zzzz`), "Invalid API key");
      await expectError(await anon.get(base + path, { headers: { authorization: "Basic x" } }), 401, "Malformed");
    }
});
