import "server-only";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/security/ids";

export type WorkflowNode = { id: string; label: string; operation_id: string; operation_version: number | null; credits: number };

export async function createWorkflow(input: { teamId: string; name: string; nodes: WorkflowNode[]; connectionIds?: string[]; active?: boolean }) {
  return db.workflow.create({
    data: {
      id: newId("wf"),
      teamId: input.teamId,
      name: input.name,
      active: input.active ?? true,
      nodes: input.nodes,
      connections: { create: (input.connectionIds ?? []).map((connectionId) => ({ connectionId })) },
    },
  });
}
