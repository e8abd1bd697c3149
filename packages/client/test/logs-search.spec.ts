import { test, expect, seed, seedTeam } from "../../../e2e/fixtures";
import { clientFor, failure } from "./support";

// `q` on logs.list and logs.iterate (GET /v1/logs?q=…, CONTRACT §12): typed, walked page after
// page with the same q, and a refused q as a PatchbayError with the server's detail.

test("logs.iterate({ q }) walks every matching log; a q without a word is a 400 PatchbayError", async () => {
  const team = await seedTeam({ name: "Client search Co" });
  const patchbay = clientFor(team.users[0]);
  await seed("logs", { team: team.id, startedAgo: [10, 20, 30, 40, 50], output: { note: "heron sighting" } });
  await seed("logs", { team: team.id, startedAgo: [15, 25], output: { note: "egret sighting" } });

  const herons: string[] = [];
  for await (const log of patchbay.logs.iterate({ q: "HERON sight", limit: 2 })) herons.push(log.id);
  expect(herons).toHaveLength(5);
  expect(new Set(herons).size).toBe(5);
  const page = await patchbay.logs.list({ q: "sighting", limit: 100 });
  expect(page.data).toHaveLength(7);
  expect(page.data.map((l) => l.id)).toEqual(expect.arrayContaining(herons));

  const refused = await failure(patchbay.logs.list({ q: "&&& !!!" }));
  expect(refused).toMatchObject({ status: 400, detail: expect.stringContaining("no word to search for") });
});
