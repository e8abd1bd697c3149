import { test, expect, baseURL } from "../fixtures";
import { screenshot, seedTeamWithPasswords, signIn } from "../support/browser";
import { AI_CLIENTS } from "@/lib/mcp/ai-clients";

// "Add Patchbay to your AI client": the docs page and the list in Settings → MCP servers both show
// this server's MCP URL (APP_URL + /mcp, which the tests' server shares with BASE_URL) and one
// entry per client of lib/mcp/ai-clients, with its configuration filled in.

const mcpUrl = () => `${baseURL()}/mcp`;

test("/docs/mcp: the URL to copy, a section per AI client with its configuration, then sign-in and tokens", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/docs/mcp");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Add Patchbay to your AI client");
  await expect(
    page.getByRole("navigation", { name: "Documentation" }).getByRole("link", { name: "AI clients" }),
  ).toHaveAttribute("aria-current", "page");

  const url = page.getByTestId("mcp-url");
  await expect(url.getByLabel("MCP URL")).toHaveValue(mcpUrl());
  await url.getByRole("button", { name: "Copy" }).click();
  await expect(url.getByText("Copied to the clipboard.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(mcpUrl());

  for (const client of AI_CLIENTS) {
    const heading = page.getByRole("heading", { level: 2, name: client.name, exact: true });
    await expect(heading).toBeVisible();
    const section = page.locator("section", { has: heading });
    await expect(section.getByRole("link", { name: client.docs.label })).toHaveAttribute("href", client.docs.url);
    if (client.snippet) {
      const snippet = section.locator("pre");
      await expect(snippet).toContainText(`"${mcpUrl()}"`);
      await expect(snippet).not.toContainText("{url}");
      await section.getByRole("button", { name: `Copy ${client.snippet.label}` }).click();
      expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toBeTruthy();
    }
    // Each client is in the table of contents and its link lands on it.
    await expect(
      page.getByRole("navigation", { name: "On this page" }).getByRole("link", { name: client.name, exact: true }),
    ).toHaveAttribute("href", `#${client.id}`);
  }
  for (const name of [
    "Any other client",
    "How sign-in works",
    "Static tokens",
    "Narrowing a request to some connections",
  ])
    await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
  // The discovery documents are this server's.
  await expect(page.getByText(`${baseURL()}/.well-known/oauth-protected-resource/mcp`)).toBeVisible();
  await expect(page.getByText(`${mcpUrl()}?connection_ids=conn_…,conn_…`)).toBeVisible();

  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    // Nothing wider than the screen: the snippets scroll inside their own boxes.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, `docs-mcp-${width}`);
  }
});

test("Settings → MCP servers shows the URL to paste and each client's steps, folded, to a member too", async ({
  page,
  context,
}) => {
  const team = await seedTeamWithPasswords({ name: "AI Client Co", members: 2 });
  const member = team.users[1];
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, member.email);
  await page.goto(`/${team.id}/settings/mcp-servers`);

  const box = page.getByRole("region", { name: "Add Patchbay to your AI client" });
  await expect(box.getByLabel("MCP URL")).toHaveValue(mcpUrl());
  // With no MCP server yet: the URL is all a client that signs in needs.
  await expect(page.getByTestId("no-mcp-servers")).toBeVisible();

  for (const client of AI_CLIENTS) await expect(box.getByText(client.name, { exact: true })).toBeVisible();
  const cursor = AI_CLIENTS.find((c) => c.id === "cursor")!;
  await expect(box.getByText(cursor.about)).toBeHidden();

  // The keyboard opens a client's steps; its configuration carries the URL and copies.
  await box.locator("summary", { hasText: cursor.name }).focus();
  await page.keyboard.press("Enter");
  await expect(box.getByText(cursor.about)).toBeVisible();
  await expect(box.getByLabel(cursor.snippet!.label, { exact: true })).toContainText(`"url": "${mcpUrl()}"`);
  await box.getByRole("button", { name: `Copy ${cursor.snippet!.label}` }).click();
  expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual({
    mcpServers: { patchbay: { url: mcpUrl() } },
  });
  await expect(box.getByRole("link", { name: "How sign-in works, static tokens and narrowing" })).toHaveAttribute(
    "href",
    "/docs/mcp",
  );

  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await screenshot(page, "settings-mcp-add-to-ai-client-390");
});
