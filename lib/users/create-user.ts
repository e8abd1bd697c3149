import "server-only";
import { db } from "@/lib/db/client";
import { transaction } from "@/lib/db/transaction";
import { notFound } from "@/lib/errors/api-error";
import { normaliseEmail } from "@/lib/users/email";
import { newId } from "@/lib/security/ids";
import { hashPassword } from "@/lib/security/hashing";

/** Creates the user (or reuses one with that email) and makes them a member of the team. */
export async function createUser(input: {
  teamId: string;
  email: string;
  role?: "owner" | "member";
  password?: string;
  name?: string;
}) {
  const email = normaliseEmail(input.email);
  const team = await db.team.findUnique({ where: { id: input.teamId }, select: { id: true } });
  if (!team) throw notFound(`No team ${input.teamId}.`);
  const role = input.role ?? "member";
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  return transaction(async (tx) => {
    const user =
      (await tx.user.findUnique({ where: { email } })) ??
      (await tx.user.create({
        data: { id: newId("user"), email, name: input.name ?? null, passwordHash: passwordHash ?? null },
      }));
    if (passwordHash && user.passwordHash !== passwordHash)
      await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
    await tx.membership.upsert({
      where: { teamId_userId: { teamId: team.id, userId: user.id } },
      create: { teamId: team.id, userId: user.id, role },
      update: { role },
    });
    return { id: user.id, email: user.email, role };
  });
}
