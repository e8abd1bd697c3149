import { Suspense } from "react";
import { ClientView } from "@/components/clients/client-view";
import { externalIdOfKey } from "@/lib/clients/client-key";

type Params = { params: Promise<{ team: string; client: string }> };

/** Next hands the segment over percent-encoded; a malformed escape is kept as typed. */
function segment(raw: string) {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export async function generateMetadata({ params }: Params) {
  const { client } = await params;
  const externalId = externalIdOfKey(segment(client));
  return { title: `${externalId ?? "No client"} · Clients · Patchbay` };
}

// The layout has already checked that the signed-in user belongs to this team.
export default async function ClientPage({ params }: Params) {
  const { team, client } = await params;
  return (
    <Suspense>
      <ClientView teamId={team} clientKey={segment(client)} />
    </Suspense>
  );
}
