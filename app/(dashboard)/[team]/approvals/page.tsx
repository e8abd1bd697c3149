import { Suspense } from "react";
import { ApprovalsExplorer } from "@/components/approvals/approvals-explorer";

export const metadata = { title: "Approvals · Patchbay" };

// The layout has already checked that the signed-in user belongs to this team. Any member may decide.
export default async function ApprovalsPage({ params }: { params: Promise<{ team: string }> }) {
  const { team } = await params;
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Approvals</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Writes that wait for a person: asked for by agents, or by workflow steps that ask for approval. Select a
          request to see exactly what would be written where (and, for a workflow, the run and the item it is for), then
          approve and run it, or reject it.
        </p>
      </div>
      <Suspense>
        <ApprovalsExplorer teamId={team} />
      </Suspense>
    </div>
  );
}
