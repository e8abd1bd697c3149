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
          Writes agents asked to make that wait for a person. Select a request to see exactly what would be written
          where, then approve and run it, or reject it.
        </p>
      </div>
      <Suspense>
        <ApprovalsExplorer teamId={team} />
      </Suspense>
    </div>
  );
}
