import { Suspense } from "react";
import { LogsExplorer } from "@/components/logs/logs-explorer";
import { getTeamHistoryWindow } from "@/lib/logs/get-team-history-window";

export const metadata = { title: "Logs · Patchbay" };

// The layout has already checked that the signed-in user belongs to this team.
export default async function LogsPage({ params }: { params: Promise<{ team: string }> }) {
  const { team } = await params;
  const history = await getTeamHistoryWindow(team);
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Logs</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Every operation of the team, newest first. Select a row for its input, output and metadata.
        </p>
      </div>
      <Suspense>
        <LogsExplorer teamId={team} history={history} />
      </Suspense>
    </div>
  );
}
