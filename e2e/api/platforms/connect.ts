import { expect } from "@playwright/test";
import { apiAs, cli, type SeededTeam } from "../../fixtures";
import { createLink, connect, paramsOf } from "../../support/oauth-flow";
import { mcpClient } from "../../support/mcp";
import type { PlatformCase } from "./case";

/** What connecting an account needs to know of a type: whether it connects through OAuth, or the credentials it takes. */
export type Connectable = Pick<PlatformCase, "type"> & {
  oauth?: object;
  manual?: Pick<NonNullable<PlatformCase["manual"]>, "good">;
};

/** A connection of `c.type` for the provider account `account`: through an auth link, or from credentials. */
export async function connectAccount(team: SeededTeam, c: Connectable, account: string): Promise<string> {
  const api = await apiAs(team.users[0]);
  if (c.oauth) {
    const link = await createLink(api, { connection_type: c.type, redirect_url: "https://client.example.com/cb" });
    const done = paramsOf(await connect(link, c.type, { account }));
    expect(done.status, JSON.stringify(done)).toBe("success");
    const status = await (await api.get(`/v1/connections/auth-links/${link.id}/status`)).json();
    expect(status.status, JSON.stringify(status)).toBe("connected");
    return status.connection_id;
  }
  const res = await api.post("/v1/connections", {
    data: { connection_type: c.type, name: `${c.type} ${account}`, credentials: c.manual!.good(account) },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).id;
}

/** An MCP server over these connections with this write policy, and a client of it. */
export async function mcpServer(
  team: SeededTeam,
  name: string,
  connectionIds: string[],
  writes: "allowed" | "approval",
) {
  const made = await cli(
    "mcp",
    "create",
    "--team",
    team.id,
    "--user",
    team.users[0].id,
    "--name",
    name,
    "--connections",
    connectionIds.join(","),
    "--writes",
    writes,
  );
  expect(made.code, JSON.stringify(made.json)).toBe(0);
  return { id: made.json.id as string, client: await mcpClient(made.json.token) };
}
