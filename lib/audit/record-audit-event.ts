import "server-only";
import type { Insertable } from "kysely";
import type { Tx } from "@/lib/db/transaction";
import type { ReadDb } from "@/lib/db/read-types";
import { newId } from "@/lib/security/ids";
import { redact } from "@/lib/observability/redact";
import { currentContext, type Actor } from "@/lib/observability/request-context";
import type { AuditAction } from "@/lib/schemas/audit-actions";
import { deferredInTx, preparedInTx, write } from "@/lib/db/write";

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

const emailOf = preparedInTx((a: { id: string }) => write.selectFrom("User").select("email").where("id", "=", a.id));
// Sent with the transaction's next statement or at its end (lib/db/write.ts): an action's record, read by no one in it.
const insertEvent = deferredInTx((e: Insertable<ReadDb["AuditEvent"]>) => write.insertInto("AuditEvent").values(e));

/**
 * Writes one audit event with the action's own transaction (`tx`), so an event exists exactly
 * when its action happened. The actor, address and request id come from the request context
 * unless given.
 */
export async function recordAuditEvent(tx: Tx, e: AuditEventInput) {
  const ctx = currentContext();
  const actor: Actor = e.actor ?? ctx.actor ?? { kind: "system" };
  let email = actor.email ?? null;
  if (!email && actor.userId) email = (await emailOf(tx, { id: actor.userId }))[0]?.email ?? null;
  const details = Object.fromEntries(Object.entries(e.details ?? {}).filter(([, v]) => v !== undefined));
  await insertEvent(tx, {
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
    createdAt: new Date(),
  });
}
