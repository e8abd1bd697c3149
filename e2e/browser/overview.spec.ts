import { test, expect, seed } from "../fixtures";
import { screenshot, seedTeamWithPasswords, signIn } from "../support/browser";

const DAY = 86_400;
const fmt = (n: number) => n.toLocaleString("en-US");

test("the overview's gauge matches GET /v1/credits, the chart has a bar per charged service and day, and recent errors link to the logs", async ({
  page,
}) => {
  const team = await seedTeamWithPasswords({ name: "Overview Co", creditsLimit: 100_000 });
  await seed("billingPeriod", { team: team.id, startedDaysAgo: 10 });
  await seed("charges", {
    team: team.id,
    charges: [
      { credits: 300, type: "workflow", ago: 0 },
      { credits: 200, type: "agent", ago: DAY + 60 },
      { credits: 100, type: "copilot", ago: 3 * DAY + 60 },
      { credits: 50, type: "mcp", ago: 5 * DAY + 60 },
      { credits: 150, type: "workflow", ago: 9 * DAY + 60 },
    ],
  });
  const failed = await seed<{ ids: string[] }>("logs", {
    team: team.id,
    status: "error",
    operationId: "ga4.run_report",
    sourceType: "workflow",
    startedAgo: [60, 120],
    output: { error: { message: "The provider answered HTTP 500" } },
  });
  await seed("logs", { team: team.id, status: "success", operationId: "ok.op", startedAgo: [30] });

  await signIn(page, team.users[0].email);
  await expect(page).toHaveURL(new RegExp(`/${team.id}$`));
  const api = await (await page.request.get("/v1/credits", { headers: { "x-patchbay-team": team.id } })).json();
  expect(api).toMatchObject({ credits_limit: 100_000, credits_used: 800, credits_remaining: 99_200 });
  await expect(page.getByTestId("credits-used")).toHaveText(fmt(api.credits_used));
  await expect(page.getByTestId("credits-limit")).toHaveText(fmt(api.credits_limit));
  await expect(page.getByTestId("credits-remaining")).toHaveText(fmt(api.credits_remaining));
  await expect(page.getByRole("meter", { name: "Credits used this period" })).toHaveAttribute("aria-valuenow", "800");
  // 800 of 100,000 is 0.8%: a share under 1% is not rounded away to "0%".
  await expect(page.getByTestId("credits-used-share")).toHaveText("0.8%");
  const daysLeft = Math.ceil((api.billing_period_end - Date.now() / 1000) / DAY);
  await expect(page.getByTestId("days-left")).toHaveText(new RegExp(`in (${daysLeft}|${daysLeft - 1}) days`));

  // One bar segment per (day, service) charged: five charges on five different days.
  const chart = page.getByRole("img", { name: /Credits used per day/ });
  await expect(chart).toContainText("Today");
  await expect(chart.locator("rect[data-service]")).toHaveCount(5);
  await expect(chart.locator('rect[data-service="workflow"]')).toHaveCount(2);
  await expect(page.getByRole("list", { name: "Legend" })).toContainText("Workflows 450");

  // 800 credits over 10 days is 80 a day; 99,200 left lasts far past the period end.
  const forecast = page.getByTestId("burn-forecast");
  await expect(forecast).toContainText("credits last past the period end");
  await expect(forecast).toContainText("80 credits a day");

  const errors = page.getByTestId("recent-errors").getByRole("link");
  await expect(errors).toHaveCount(2);
  await expect(errors.first()).toContainText("ga4.run_report");
  // Each opens its own log, among the errors of its operation.
  const [newest] = failed.ids; // started 60 s ago
  await expect(errors.first()).toHaveAttribute(
    "href",
    `/${team.id}/logs?status=error&operation_id=ga4.run_report&log=${newest}`,
  );
  // Its message, not the JSON around it.
  await expect(errors.first()).toContainText("The provider answered HTTP 500");
  await expect(errors.first()).not.toContainText('{"error"');
  await expect(page.getByRole("link", { name: "All errors" })).toHaveAttribute("href", `/${team.id}/logs?status=error`);
  await screenshot(page, "overview");
});

test("an over-limit team sees its negative balance and the overshoot; a fast burner sees the run-out date", async ({
  page,
}) => {
  const over = await seedTeamWithPasswords({ name: "Overshoot Co", creditsLimit: 100 });
  await seed("charges", { team: over.id, charges: [{ credits: 150, type: "agent", ago: 0 }] });
  await signIn(page, over.users[0].email);
  const api = await (await page.request.get("/v1/credits", { headers: { "x-patchbay-team": over.id } })).json();
  expect(api.credits_remaining).toBe(-50);
  await expect(page.getByTestId("credits-remaining")).toHaveText("-50");
  await expect(page.getByTestId("over-limit")).toContainText("Over the limit by 50 credits");
  await expect(page.getByTestId("burn-forecast")).toContainText("Credits have run out");
  await expect(page.getByTestId("no-recent-errors")).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "overview-over-limit-390");

  // 400 used in 2 days = 200 a day; 600 left runs out in 3 days, before the period ends.
  const fast = await seedTeamWithPasswords({ name: "Fast burn Co", creditsLimit: 1_000 });
  await seed("billingPeriod", { team: fast.id, startedDaysAgo: 2 });
  await seed("charges", {
    team: fast.id,
    charges: [
      { credits: 200, type: "workflow", ago: DAY + 60 },
      { credits: 200, type: "mcp", ago: 60 },
    ],
  });
  await page.context().clearCookies();
  await signIn(page, fast.users[0].email);
  // The dashboard's one date format, in the viewer's zone (the browser's is this machine's).
  const runOut = new Date(Date.now() + 3 * DAY * 1000).toLocaleDateString("en-GB", {
    day: "2-digit",
    month: "short",
    year: "numeric",
  });
  await expect(page.getByTestId("burn-forecast")).toContainText(`credits run out on`);
  await expect(page.getByTestId("burn-forecast")).toContainText(runOut);
  await expect(page.getByTestId("burn-forecast")).toContainText("200 credits a day");
  await expect(page.getByTestId("credits-used-share")).toHaveText("40%");
});
