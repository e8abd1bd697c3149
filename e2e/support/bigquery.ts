import { randomBytes } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect, seedTeam, apiAs, cli } from "../fixtures";
import { bigqueryProject } from "./stand-ins/google-workspace";

// A BigQuery connection on a fresh account of the Google stand-in, behind an MCP server of its
// team: for the specs that drive bigquery.query through run_operation.

/** A team with a BigQuery connection (white-label credentials of a fresh stand-in account) behind an MCP server. */
export async function bigqueryBehindMcpServer(options: { prefix: string; name: string; writes?: string }) {
  const account = `${options.prefix}-${randomBytes(4).toString("hex")}`;
  const team = await seedTeam({ plan: "team" });
  const api = await apiAs(team.users[0]);
  const res = await api.post("/v1/connections", {
    data: {
      connection_type: "bigquery",
      name: `BigQuery ${account}`,
      credentials: {
        client_id: "wl-client.apps.googleusercontent.com",
        client_secret: "GOCSPX-white-label",
        // The stand-in takes `rt_<account>` as a refresh token of <account>.
        refresh_token: `rt_${account}`,
      },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const connectionId = (await res.json()).id as string;
  const made = await cli(
    "mcp",
    "create",
    "--team",
    team.id,
    "--user",
    team.users[0].id,
    "--name",
    options.name,
    "--connections",
    connectionId,
    ...(options.writes ? ["--writes", options.writes] : []),
  );
  expect(made.code, JSON.stringify(made.json)).toBe(0);
  return {
    account,
    project: bigqueryProject(account),
    team,
    api,
    connectionId,
    server: { id: made.json.id as string, token: made.json.token as string },
  };
}

/** A tool result's text content. */
export const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
