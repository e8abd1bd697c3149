import { test, expect } from "../fixtures";
import { seedTeamWithPasswords, signIn } from "../support/browser";

// The tables keep their filters in the URL (components/data-table/use-url-filters.ts). A search
// commits after a pause in typing; a filter chosen during that pause used to be lost when the
// search committed, because the search wrote the URL it had seen when typing began (found by CI,
// on the Operations page under load). Real Chromium against the run's server.

test("a kind chosen while the search is still pausing keeps both, and back undoes them one at a time", async ({
  page,
}) => {
  const team = await seedTeamWithPasswords({ name: "Filters Co" });
  await signIn(page, team.users[0].email);
  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Operations" }).click();
  const grid = page.getByRole("grid", { name: "Operations" });
  const setNote = grid.getByRole("row").filter({ hasText: "sandbox.set_note" });
  const report = grid.getByRole("row").filter({ hasText: "sandbox.report" });
  await expect(setNote).toBeVisible();

  // The kind is chosen at once, inside the search's pause.
  await page.getByLabel("Search").fill("note");
  await page.getByLabel("Kind").selectOption("read");
  await expect(page).toHaveURL(/[?&]q=note(&|$)/);
  await expect(page).toHaveURL(/[?&]kind=read(&|$)/);
  await expect(page.getByLabel("Kind")).toHaveValue("read");
  await expect(page.getByLabel("Search")).toHaveValue("note");
  await expect(setNote).toHaveCount(0);
  await expect(page.getByTestId("operations-count")).toContainText("match");

  // Each change was its own history entry: back removes the search, then the kind.
  await page.goBack();
  await expect(page).not.toHaveURL(/q=note/);
  await expect(page).toHaveURL(/[?&]kind=read(&|$)/);
  await expect(page.getByLabel("Search")).toHaveValue("");
  await expect(report).toBeVisible();
  await page.goBack();
  await expect(page).not.toHaveURL(/kind=/);
  await expect(page.getByLabel("Kind")).toHaveValue("");
  await expect(setNote).toBeVisible();

  // A filter after going back starts from the URL as it is now, not from the forward history.
  await page.getByLabel("Kind").selectOption("write");
  await expect(page).toHaveURL(/[?&]kind=write(&|$)/);
  await expect(page).not.toHaveURL(/q=note/);
  await expect(report).toHaveCount(0);
});
