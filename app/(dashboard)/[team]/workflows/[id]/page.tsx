import { Suspense } from "react";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/auth/current-user";
import { WorkflowView } from "@/components/workflows/workflow-view";

export const metadata = { title: "Workflow · Patchbay" };

/**
 * One workflow, its actions and its runs. The role decides which actions are offered; the API
 * enforces the same rules.
 */
export default async function WorkflowPage({ params }: { params: Promise<{ team: string; id: string }> }) {
  const { team, id } = await params;
  const user = await requireUser(`/${team}/workflows/${id}`);
  const membership = user.teams.find((t) => t.id === team);
  if (!membership) notFound();
  return (
    <Suspense>
      <WorkflowView teamId={team} workflowId={id} isOwner={membership.role === "owner"} />
    </Suspense>
  );
}
