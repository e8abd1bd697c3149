import "server-only";
import { db } from "@/lib/db/client";
import { DEMO_EMAIL } from "@/lib/demo/ensure-demo";
import { findWorkflowTemplate, instantiateTemplate } from "@/lib/workflows/workflow-templates";
import { createWorkflow } from "@/lib/workflows/save-workflow";

// The demo's real workflow: the sandbox template on its sandbox key connection, hourly, saved
// inactive. It writes (the account's note), and the demo never writes on its own: a person turns
// it on, or runs it, from its page.

const TEMPLATE = "sandbox_daily_note";

export async function ensureDemoWorkflow(teamId: string): Promise<{ workflowId: string } | null> {
  const owner = await db.user.findUnique({ where: { email: DEMO_EMAIL }, select: { id: true } });
  const connection = await db.connection.findFirst({
    where: { teamId, type: "sandbox_key", ownerUserId: null },
    orderBy: { createdAt: "asc" },
    select: { id: true },
  });
  const template = findWorkflowTemplate(TEMPLATE)!;
  if (!owner || !connection) return null;
  // The demo owner's own workflow: one a member saved under the same name is not run as the owner.
  let workflow = await db.workflow.findFirst({
    where: { teamId, name: template.name, createdByUserId: owner.id },
    orderBy: { createdAt: "asc" },
    select: { id: true },
  });
  if (!workflow) {
    const nodes = instantiateTemplate(template, { sandbox: connection.id }, {});
    workflow = await createWorkflow(
      { teamId, userId: owner.id },
      { name: template.name, nodes, schedule: template.schedule, timezone: template.timezone, active: false },
    );
  }
  return { workflowId: workflow.id };
}
