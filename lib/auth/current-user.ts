import "server-only";
import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { db } from "@/lib/db/client";
import { authOptions } from "@/lib/auth/auth-options";

/** The signed-in user and their teams, or null. */
export async function currentUser() {
  const session = await getServerSession<typeof authOptions, { userId?: string; sessionEpoch?: number }>(authOptions);
  if (!session?.userId) return null;
  const user = await db.user.findUnique({
    where: { id: session.userId },
    select: {
      id: true,
      email: true,
      name: true,
      sessionEpoch: true,
      memberships: {
        select: { role: true, team: { select: { id: true, name: true, plan: true } } },
        orderBy: { createdAt: "asc" },
      },
    },
  });
  // Signed out everywhere since this session began: as good as no session.
  if (!user || user.sessionEpoch !== (session.sessionEpoch ?? 0)) return null;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    teams: user.memberships.map((m) => ({
      ...m.team,
      role: m.role === "owner" ? ("owner" as const) : ("member" as const),
    })),
  };
}

export type CurrentUser = NonNullable<Awaited<ReturnType<typeof currentUser>>>;

/** For dashboard pages: the user, or a redirect to sign-in that comes back to `path`. */
export async function requireUser(path: string): Promise<CurrentUser> {
  const user = await currentUser();
  if (!user) redirect(`/sign-in?callbackUrl=${encodeURIComponent(path)}`);
  return user;
}
