import { test, expect, seedTeam, apiAs } from "../fixtures";

test("a new team's key lists its (empty) connections", async () => {
  const team = await seedTeam();
  const api = await apiAs(team.users[0]);
  const res = await api.get("/v1/connections");
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual([]);
});
