import "server-only";
import type { Tx } from "@/lib/db/transaction";
import { newId } from "@/lib/security/ids";
import { redact } from "@/lib/observability/redact";
import { currentContext, type Actor } from "@/lib/observability/request-context";
import type { AuditAction } from "@/lib/schemas/audit-actions";

type Detail = string | number | boolean | null | string[];

export type AuditEventInput = {
  teamId: string;
  action: AuditAction;
  target: { type: string; id: string | null };
  /** Safe facts only: names, roles, a key's prefix. Values under secret-looking names are dropped anyway. */
  details?: Record<string, Detail | undefined>;
  /** Who acted, when it is not the current request's principal (a link holder, the CLI's named user). */
  actor?: Actor;
};

/**
 * Writes one audit event with the action's own transaction (`tx`), so an event exists exactly
 * when its action happened. The actor, address and request id come from the request context
 * unless given.
 */
export async function recordAuditEvent(tx: Tx, e: AuditEventInput) {
  const ctx = currentContext();
  const actor: Actor = e.actor ?? ctx.actor ?? { kind: "system" };
  let email = actor.email ?? null;
  if (!email && actor.userId)
    email = (await tx.user.findUnique({ where: { id: actor.userId }, select: { email: true } }))?.email ?? null;
  const details = Object.fromEntries(Object.entries(e.details ?? {}).filter(([, v]) => v !== undefined));
  await tx.auditEvent.create({
    data: {
      id: newId("aud"),
      teamId: e.teamId,
      actorKind: actor.kind,
      actorUserId: actor.userId ?? null,
      actorEmail: email,
      actorKeyId: actor.apiKeyId ?? null,
      action: e.action,
      targetType: e.target.type,
      targetId: e.target.id,
      details: JSON.stringify(redact(details)),
      ip: ctx.ip ?? null,
      requestId: ctx.requestId ?? null,
    },
  });
}
