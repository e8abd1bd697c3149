import { Suspense } from "react";
import { OperationsExplorer } from "@/components/operations/operations-explorer";

export const metadata = { title: "Operations · Patchbay" };

// The layout has already checked that the signed-in user belongs to this team.
export default async function OperationsPage({ params }: { params: Promise<{ team: string }> }) {
  const { team } = await params;
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Operations</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          What agents and workflows can do on the team&apos;s connections: reads, and writes that may need a
          person&apos;s approval. Select a row for its input fields and an example.
        </p>
      </div>
      <Suspense>
        <OperationsExplorer teamId={team} />
      </Suspense>
    </div>
  );
}
