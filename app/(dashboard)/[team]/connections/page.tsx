import { Suspense } from "react";
import { ConnectionsView } from "@/components/connections/connections-view";

export const metadata = { title: "Connections · Patchbay" };

export default async function ConnectionsPage({ params }: { params: Promise<{ team: string }> }) {
  const { team } = await params;
  return (
    <Suspense>
      <ConnectionsView teamId={team} />
    </Suspense>
  );
}
