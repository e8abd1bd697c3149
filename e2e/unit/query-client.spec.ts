import { test, expect } from "@playwright/test";
import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { DashboardQueryClient } from "@/lib/queries/query-client";

// A list opened and written to at once: its first fetch reads before the write and answers after
// it. The write's invalidation must end with the list read after the write.

async function listAfterWrite(client: QueryClient) {
  const rows: string[] = [];
  let answerFirst!: () => void;
  let fetches = 0;
  const observer = new QueryObserver(client, {
    queryKey: ["tokens"],
    queryFn: ({ signal }) => {
      fetches += 1;
      const read = [...rows]; // what the server read, when it read it
      if (fetches > 1) return Promise.resolve(read);
      return new Promise<string[]>((resolve, reject) => {
        answerFirst = () => resolve(read);
        signal.addEventListener("abort", () => reject(new Error("cancelled")));
      });
    },
  });
  const unsubscribe = observer.subscribe(() => {});
  await expect.poll(() => fetches).toBe(1); // the first fetch is in flight
  rows.push("Laptop"); // the write, answered before that fetch
  const invalidated = client.invalidateQueries({ queryKey: ["tokens"] });
  answerFirst(); // the first fetch answers late, with what it read before the write
  await invalidated;
  await expect.poll(() => observer.getCurrentResult().fetchStatus).toBe("idle");
  const data = observer.getCurrentResult().data;
  unsubscribe();
  client.clear();
  return { data, fetches };
}

test("the dashboard's invalidation after a write fetches anew even while a list's first fetch is in flight", async () => {
  expect(await listAfterWrite(new DashboardQueryClient())).toEqual({ data: ["Laptop"], fetches: 2 });
});

test("the check itself: TanStack's own invalidation reuses that first fetch and keeps its stale answer", async () => {
  expect(await listAfterWrite(new QueryClient())).toEqual({ data: [], fetches: 1 });
});
