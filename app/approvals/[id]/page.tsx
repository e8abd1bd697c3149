import { notFound, redirect } from "next/navigation";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db/client";
import { UNSTORABLE } from "@/lib/http/parse";

export const dynamic = "force-dynamic";

/**
 * The approve_url an agent hands to a person (CONTRACT §8): sign in first if needed (coming back
 * here), then the request's detail on its team's Approvals page. A request of a team the person
 * is not in is not found.
 */
export default async function ApprovalLink({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await requireUser(`/approvals/${encodeURIComponent(id)}`);
  const approval = UNSTORABLE.test(id)
    ? null
    : await db.approval.findUnique({ where: { id: id.slice(0, 100) }, select: { teamId: true } });
  if (!approval || !user.teams.some((t) => t.id === approval.teamId)) notFound();
  redirect(`/${encodeURIComponent(approval.teamId)}/approvals?approval=${encodeURIComponent(id)}`);
}
