import { test, expect, seedTeam, apiAs } from "../fixtures";
import { authorize, callback, createLink, paramsOf, start } from "../support/oauth-flow";
import { startInstance } from "../support/instances";

// Issue 6 §3: two stateless app processes on one database (PostgreSQL in CI's second pass, the
// SQLite file otherwise) behind different ports, as behind a load balancer.

let second: Awaited<ReturnType<typeof startInstance>>;
test.beforeAll(async () => {
  second = await startInstance();
});
test.afterAll(async () => {
  await second?.stop();
  expect(second.log()).not.toMatch(/unhandled error/);
});

const rand = () => Math.random().toString(36).slice(2, 10);
/** The same request, delivered to the other instance. */
const onSecond = (url: string) => {
  const u = new URL(url);
  const s = new URL(second.baseUrl);
  u.protocol = s.protocol;
  u.host = s.host;
  return u.toString();
};

test("concurrent OAuth callbacks for one link, split across both instances, create exactly one connection", async () => {
  const team = await seedTeam({ name: "Two instances Co" });
  const api = await apiAs(team.users[0]);
  const externalId = `x-${rand()}`;
  const link = await createLink(api, {
    connection_type: "ga4",
    external_id: externalId,
    redirect_url: "https://client.example.com/cb",
  });
  const callbacks = await Promise.all(
    Array.from({ length: 20 }, async (_, i) => authorize(await start(link), { account: `acct_${rand()}_${i}` })),
  );
  const results = (await Promise.all(callbacks.map((cb, i) => callback(i % 2 ? onSecond(cb) : cb)))).map(paramsOf);
  expect(results.filter((r) => r.status === "success")).toHaveLength(1);
  expect(results.filter((r) => r.error === "link_used")).toHaveLength(19);
  const status = await (await api.get(`/v1/connections/auth-links/${link.id}/status`)).json();
  expect(status.status).toBe("connected");
  const made = await (await api.get(`/v1/connections?external_id=${externalId}`)).json();
  expect(made.map((c: { id: string }) => c.id)).toEqual([status.connection_id]);
});

test("the same account posted at once to both instances rotates into one connection", async () => {
  const team = await seedTeam({ name: "Rotation race Co" });
  const headers = { authorization: `Bearer ${team.users[0].key}`, "content-type": "application/json" };
  const body = JSON.stringify({
    connection_type: "sandbox_whitelabel",
    name: "Same account",
    credentials: { client_id: "client-race", client_secret: "secret-race", refresh_token: `refresh-${rand()}` },
  });
  const bases = [process.env.BASE_URL!, second.baseUrl];
  const answers = await Promise.all(
    Array.from({ length: 12 }, (_, i) => fetch(`${bases[i % 2]}/v1/connections`, { method: "POST", headers, body })),
  );
  expect(answers.map((r) => r.status)).toEqual(Array(12).fill(200));
  const ids = new Set((await Promise.all(answers.map((r) => r.json()))).map((c: { id: string }) => c.id));
  expect(ids.size).toBe(1);
  const listed = await (await fetch(`${second.baseUrl}/v1/connections?type=sandbox_whitelabel`, { headers })).json();
  expect(listed.map((c: { id: string }) => c.id)).toEqual([...ids]);
});

test("a link created on one instance is served, used and reported on the other", async () => {
  const team = await seedTeam({ name: "Any instance Co" });
  const api = await apiAs(team.users[0]);
  const link = await createLink(api, { connection_type: "ga4" });
  const page = await fetch(onSecond(link.url));
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("Connect your");
  await callback(onSecond(await authorize(await start(link), { account: `acct_${rand()}` })));
  const status = await (
    await fetch(`${second.baseUrl}/v1/connections/auth-links/${link.id}/status`, {
      headers: { authorization: `Bearer ${team.users[0].key}` },
    })
  ).json();
  expect(status.status).toBe("connected");
});
