import "server-only";
import { db } from "@/lib/db/client";

/** Every team, oldest first, for the operator's command line (`team list`): who is where. */
export async function listTeams() {
  const rows = await db.team.findMany({
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, name: true, plan: true, createdAt: true, _count: { select: { memberships: true } } },
  });
  return rows.map((t) => ({
    id: t.id,
    name: t.name,
    plan: t.plan,
    members: t._count.memberships,
    created_at: Math.floor(t.createdAt.getTime() / 1000),
  }));
}
