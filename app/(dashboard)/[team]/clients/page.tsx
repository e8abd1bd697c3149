import { Suspense } from "react";
import { ClientsExplorer } from "@/components/clients/clients-explorer";

export const metadata = { title: "Clients · Patchbay" };

// The layout has already checked that the signed-in user belongs to this team.
export default async function ClientsPage({ params }: { params: Promise<{ team: string }> }) {
  const { team } = await params;
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Clients</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Your customers&apos; accounts grouped by the <code>external_id</code> their auth links carried: their health,
          what they cost and how much they ran. Connections without one are under No client.
        </p>
      </div>
      <Suspense>
        <ClientsExplorer teamId={team} />
      </Suspense>
    </div>
  );
}
