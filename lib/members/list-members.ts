import "server-only";
import { db } from "@/lib/db/client";
import type { MemberJson } from "@/lib/schemas/dashboard";

/** Everyone in the team, owners first, then by when they joined. */
export async function listMembers(teamId: string): Promise<MemberJson[]> {
  const rows = await db.membership.findMany({
    where: { teamId },
    orderBy: [{ createdAt: "asc" }, { userId: "asc" }],
    select: { role: true, createdAt: true, user: { select: { id: true, email: true, name: true } } },
  });
  return rows
    .map((m) => ({
      user_id: m.user.id,
      email: m.user.email,
      name: m.user.name,
      role: m.role === "owner" ? ("owner" as const) : ("member" as const),
      joined_at: Math.floor(m.createdAt.getTime() / 1000),
    }))
    .sort((a, b) => (a.role === b.role ? 0 : a.role === "owner" ? -1 : 1));
}
