import "server-only";
import { db } from "@/lib/db/client";
import { transaction } from "@/lib/db/transaction";
import { appUrl } from "@/lib/config/env";
import { ApiError, badRequest, notFound } from "@/lib/errors/api-error";
import { newId, randomToken } from "@/lib/security/ids";
import { hashPassword, sha256Hex } from "@/lib/security/hashing";
import { normaliseEmail } from "@/lib/users/email";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { INVITE_TTL_DAYS, type CreatedInviteJson, type InviteJson, type MemberJson } from "@/lib/schemas/dashboard";

// Owners invite people by email; there is no mail delivery, so the owner copies the link to
// them (as with auth links). The link is the secret; it names one email address, and whoever
// accepts becomes that account (signing in as it, or creating it with a password).

const inviteUrl = (token: string) => `${appUrl()}/invite/${token}`;

type InviteRow = {
  id: string;
  email: string;
  role: string;
  createdByUserId: string | null;
  createdAt: Date;
  expiresAt: Date;
};

const INVITE_TOKEN = /^[0-9A-Za-z]{32}$/;

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
const asRole = (role: string): MemberJson["role"] => (role === "owner" ? "owner" : "member");

function toJson(row: InviteRow, inviters: Map<string, string>, now = Date.now()): InviteJson {
  return {
    id: row.id,
    email: row.email,
    role: asRole(row.role),
    status: row.expiresAt.getTime() > now ? "pending" : "expired",
    invited_by:
      row.createdByUserId && inviters.has(row.createdByUserId)
        ? { id: row.createdByUserId, email: inviters.get(row.createdByUserId)! }
        : null,
    created_at: seconds(row.createdAt),
    expires_at: seconds(row.expiresAt),
  };
}

async function invitersOf(rows: InviteRow[]) {
  const ids = [...new Set(rows.map((r) => r.createdByUserId).filter((id): id is string => !!id))];
  const users = ids.length
    ? await db.user.findMany({ where: { id: { in: ids } }, select: { id: true, email: true } })
    : [];
  return new Map(users.map((u) => [u.id, u.email]));
}

/** A new invite for `email`; an open invite for the same address is replaced (its link stops working). */
export async function createInvite(
  teamId: string,
  invitedBy: { id: string; email: string },
  input: { email: string; role: MemberJson["role"] },
): Promise<CreatedInviteJson> {
  const email = normaliseEmail(input.email);
  const member = await db.membership.findFirst({ where: { teamId, user: { email } }, select: { userId: true } });
  if (member) throw new ApiError(409, `${email} is already a member of this team.`);
  const now = new Date();
  // The link's token is shown in this answer only; the invite keeps its SHA-256, as API keys do.
  const token = randomToken(32);
  const row = await transaction(async (tx) => {
    await tx.invite.updateMany({
      where: { teamId, email, acceptedAt: null, revokedAt: null },
      data: { revokedAt: now },
    });
    const invite = await tx.invite.create({
      data: {
        id: newId("inv"),
        tokenHash: sha256Hex(token),
        teamId,
        email,
        role: input.role,
        createdByUserId: invitedBy.id,
        expiresAt: new Date(now.getTime() + INVITE_TTL_DAYS * 86_400_000),
      },
    });
    // The invite's link is a secret (it lets its holder join): only the address and role.
    await recordAuditEvent(tx, {
      teamId,
      action: "invite.create",
      target: { type: "invite", id: invite.id },
      details: { email, role: input.role },
    });
    return invite;
  });
  return { ...toJson(row, new Map([[invitedBy.id, invitedBy.email]])), url: inviteUrl(token) };
}

/** Invites not yet accepted or revoked, newest first (expired ones too, so they can be sent again). */
export async function listInvites(teamId: string): Promise<InviteJson[]> {
  const rows = await db.invite.findMany({
    where: { teamId, acceptedAt: null, revokedAt: null },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 100,
  });
  const inviters = await invitersOf(rows);
  return rows.map((r) => toJson(r, inviters));
}

export async function revokeInvite(teamId: string, id: string): Promise<{ id: string; revoked: true }> {
  await transaction(async (tx) => {
    const invite = await tx.invite.findFirst({
      where: { id, teamId, acceptedAt: null, revokedAt: null },
      select: { email: true, role: true },
    });
    const { count } = await tx.invite.updateMany({
      where: { id, teamId, acceptedAt: null, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    if (!count || !invite) throw notFound(`No open invite ${id} in this team.`);
    await recordAuditEvent(tx, {
      teamId,
      action: "invite.revoke",
      target: { type: "invite", id },
      details: { email: invite.email, role: invite.role },
    });
  });
  return { id, revoked: true };
}

type InviteState = "pending" | "expired" | "accepted" | "revoked";

/** What the invite page shows: the invite, its team and whether its email has an account here. */
export async function findInvite(token: string) {
  if (!INVITE_TOKEN.test(token)) return null;
  const invite = await db.invite.findUnique({
    where: { tokenHash: sha256Hex(token) },
    include: { team: { select: { id: true, name: true } } },
  });
  if (!invite) return null;
  const [inviter, account] = await Promise.all([
    invite.createdByUserId
      ? db.user.findUnique({ where: { id: invite.createdByUserId }, select: { email: true } })
      : null,
    db.user.findUnique({ where: { email: invite.email }, select: { id: true, passwordHash: true } }),
  ]);
  const state: InviteState = invite.revokedAt
    ? "revoked"
    : invite.acceptedAt
      ? "accepted"
      : invite.expiresAt.getTime() <= Date.now()
        ? "expired"
        : "pending";
  return {
    email: invite.email,
    role: asRole(invite.role),
    team: invite.team,
    invitedBy: inviter?.email ?? null,
    expiresAt: seconds(invite.expiresAt),
    state,
    accountExists: !!account,
  };
}

const STATE_ERRORS: Record<Exclude<InviteState, "pending">, string> = {
  expired: "This invite has expired. Ask the team owner for a new one.",
  accepted: "This invite has already been accepted.",
  revoked: "This invite was withdrawn. Ask the team owner for a new one.",
};

/**
 * Joins the team named by the invite, exactly once: the invite is claimed with a conditional
 * update (still open, not expired) in the same transaction that adds the membership.
 * `as` is the signed-in user; without one, the invite's email must not have an account yet
 * and `password` creates it.
 */
export async function acceptInvite(
  token: string,
  as: { userId: string } | null,
  input: { password?: string; name?: string },
) {
  const invite = await findInvite(token);
  if (!invite) throw notFound("This invite link is not valid. Check that it was copied whole.");
  if (invite.state !== "pending") throw new ApiError(410, STATE_ERRORS[invite.state]);
  const userId = as?.userId ?? null;
  if (userId) {
    const user = await db.user.findUnique({ where: { id: userId }, select: { email: true } });
    if (user?.email !== invite.email)
      throw new ApiError(
        403,
        `This invite is for ${invite.email}; you are signed in as ${user?.email ?? "another account"}. Sign out, then open the link again.`,
      );
  } else if (invite.accountExists) {
    throw new ApiError(409, `${invite.email} already has an account: sign in as it to accept.`);
  } else if (!input.password) {
    throw badRequest("password: choose a password for your new account");
  }
  const passwordHash = !userId && input.password ? await hashPassword(input.password) : null;
  const now = new Date();
  const joined = await transaction(async (tx) => {
    const tokenHash = sha256Hex(token);
    const { count } = await tx.invite.updateMany({
      where: { tokenHash, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      data: { acceptedAt: now },
    });
    if (!count) throw new ApiError(410, "This invite is no longer open (accepted, withdrawn or expired a moment ago).");
    const inviteRow = await tx.invite.findUniqueOrThrow({ where: { tokenHash }, select: { id: true } });
    // The unique email decides a race with another sign-up for the same address (P2002 below).
    const joiner =
      userId ??
      (
        await tx.user.create({
          data: {
            id: newId("user"),
            email: invite.email,
            name: input.name || null,
            passwordHash,
            passwordFromInvite: true,
          },
        })
      ).id;
    await tx.invite.updateMany({ where: { tokenHash }, data: { acceptedUserId: joiner } });
    await tx.membership.upsert({
      where: { teamId_userId: { teamId: invite.team.id, userId: joiner } },
      create: { teamId: invite.team.id, userId: joiner, role: invite.role },
      update: {},
    });
    await recordAuditEvent(tx, {
      teamId: invite.team.id,
      action: "invite.accept",
      target: { type: "invite", id: inviteRow.id },
      details: { email: invite.email, role: invite.role, new_account: !userId },
      actor: { kind: userId ? "session" : "invite_link", userId: joiner, email: invite.email },
    });
    return { team: invite.team, email: invite.email, role: invite.role };
  }).catch((e: unknown) => {
    if ((e as { code?: string }).code === "P2002")
      throw new ApiError(409, `${invite.email} already has an account: sign in as it to accept.`);
    throw e;
  });
  return joined;
}
