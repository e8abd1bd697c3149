import Link from "next/link";
import { Suspense } from "react";
import { WorkflowsExplorer } from "@/components/workflows/workflows-explorer";

export const metadata = { title: "Workflows · Patchbay" };

// The layout has already checked that the signed-in user belongs to this team. Every member sees
// and edits workflows; only owners activate ones that write.
export default async function WorkflowsPage({ params }: { params: Promise<{ team: string }> }) {
  const { team } = await params;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0 max-w-3xl">
          <h1 className="text-2xl font-semibold tracking-tight">Workflows</h1>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Operations that run one after another, on a schedule or when started: each node can use what the nodes
            before it returned. Select a workflow for its runs.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link href={`/${team}/workflows/templates`} className="btn-secondary">
            From a template
          </Link>
          <Link href={`/${team}/workflows/new`} className="btn-primary">
            New workflow
          </Link>
        </div>
      </div>
      <Suspense>
        <WorkflowsExplorer teamId={team} />
      </Suspense>
    </div>
  );
}
