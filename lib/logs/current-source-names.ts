import "server-only";
import { db } from "@/lib/db/client";

/** Current names of the workflows and MCP servers a page of logs refers to (two queries at most). */
export async function currentSourceNames(teamId: string, rows: { sourceType: string; sourceId: string | null }[]) {
  const ids = (type: string) => [...new Set(rows.filter((r) => r.sourceType === type && r.sourceId).map((r) => r.sourceId!))];
  const workflowIds = ids("workflow");
  const mcpIds = ids("mcp");
  const [workflows, servers] = await Promise.all([
    workflowIds.length ? db.workflow.findMany({ where: { teamId, id: { in: workflowIds } }, select: { id: true, name: true } }) : [],
    mcpIds.length ? db.mcpServer.findMany({ where: { teamId, id: { in: mcpIds } }, select: { id: true, name: true } }) : [],
  ]);
  const names = new Map<string, string>();
  for (const w of workflows) names.set(`workflow:${w.id}`, w.name);
  for (const s of servers) names.set(`mcp:${s.id}`, s.name);
  return (row: { sourceType: string; sourceId: string | null }) => (row.sourceId ? names.get(`${row.sourceType}:${row.sourceId}`) : undefined);
}
