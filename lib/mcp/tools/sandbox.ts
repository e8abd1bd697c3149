import "server-only";
import { z } from "zod";
import { sandboxApiGet, sandboxAuthHeaders } from "@/lib/providers/sandbox/sandbox-provider";
import { SANDBOX_REPORT_METRICS } from "@/lib/providers/sandbox/sandbox-server";
import { defineTool } from "@/lib/mcp/tools/define-tool";
import { isoDate } from "@/lib/mcp/tools/tool-arguments";
import type { ProviderTool } from "@/lib/mcp/tools/types";

const sandboxReport = defineTool({
  name: "sandbox_report",
  title: "Sandbox daily report",
  description:
    "Daily values of one metric (sessions, users, signups or revenue in USD) of the connected sandbox account, for the `days` days ending on end_date, with their total. " +
    "The sandbox is Patchbay's built-in demo provider: the numbers are made up but stable (the same question always gets the same answer).",
  types: ["sandbox_oauth", "sandbox_whitelabel", "sandbox_key"],
  operationId: "sandbox.report",
  credits: 2,
  cacheTtlSeconds: 300,
  input: {
    metric: z.enum(SANDBOX_REPORT_METRICS).describe("What to report: sessions, users, signups or revenue (USD)."),
    days: z.number().int().min(1).max(366).default(7).describe("How many days, ending on end_date (1-366, default 7)."),
    end_date: isoDate.optional().describe("The last day, YYYY-MM-DD (default: today, UTC)."),
  },
  async run({ connection, credentials }, args) {
    const query = new URLSearchParams({ metric: args.metric, days: String(args.days), ...(args.end_date && { end_date: args.end_date }) });
    const headers = await sandboxAuthHeaders(connection.type, credentials);
    const body = await sandboxApiGet(connection.type, `/sandbox/api/report?${query}`, headers, "the report call");
    return { metric: body.metric, unit: body.unit, total: body.total, rows: body.rows };
  },
});

export const tools: ProviderTool[] = [sandboxReport];
