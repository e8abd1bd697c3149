import { Suspense } from "react";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/auth/current-user";
import { ApiError } from "@/lib/errors/api-error";
import { visibleConnectionOrThrow } from "@/lib/connections/visible-connection-or-throw";
import { ConnectionPage } from "@/components/connections/connection-page";

export const metadata = { title: "Connection · Patchbay" };

/**
 * One connection: its health, use, spend, errors and consent. Another team's connection, or
 * another member's private one, is a 404 page, as its API routes answer 404.
 */
export default async function ConnectionDetailPage({ params }: { params: Promise<{ team: string; id: string }> }) {
  const { team, id } = await params;
  const user = await requireUser(`/${team}/connections/${id}`);
  if (!user.teams.some((t) => t.id === team)) notFound();
  try {
    await visibleConnectionOrThrow(team, user.id, id);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) notFound();
    throw e;
  }
  return (
    <Suspense>
      <ConnectionPage teamId={team} connectionId={id} />
    </Suspense>
  );
}
