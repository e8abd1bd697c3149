import "server-only";
import type { Approval } from "@/lib/db/client";
import { findOperation } from "@/lib/operations/registry";
import { connectionForRun, type ScopedConnection } from "@/lib/operations/run-operation";
import type { Operation } from "@/lib/platforms/kit/operation-types";
import { parseStored } from "@/lib/approvals/approval-json";
import {
  beforeFingerprint,
  describeBeforeChange,
  isUnreadable,
  rememberShown,
  readBeforeState,
  sameBefore,
  storedBefore,
  type CurrentBefore,
} from "@/lib/approvals/before-state";

/**
 * Reads a request's before-state again with the operation's own `before` reader (every operation
 * that has one gets this), on its connection as it is now. Null when there is nothing to read: an
 * operation without a reader, or one no longer in the catalogue. A connection since deleted reads
 * as unreadable (approving it then fails like any write on a deleted connection).
 */
export async function readCurrentBefore(row: Approval): Promise<CurrentBefore | null> {
  const op = findOperation(row.operationId);
  if (!op?.before) return null;
  const filed = parseStored(row.before);
  const connection = await connectionForRun(row.teamId, row.connectionId);
  const input = JSON.parse(row.input) as Record<string, unknown>;
  const current = connection
    ? storedBefore(await readBeforeState(row.teamId, op, connection, input))
    : { error: `The current state could not be read: connection ${row.connectionId} was deleted.` };
  const changed = row.before !== null && !sameBefore(filed, current);
  const summary = (connection && remadeSummary(op, input, connection, current)) ?? row.summary;
  const fingerprint = beforeFingerprint(current);
  rememberShown(fingerprint, current);
  return {
    current,
    changed,
    fingerprint,
    summary,
    change: changed ? describeBeforeChange(filed, current, "this request was filed") : null,
  };
}

/** The summary made from the state now; null (the filed one is kept) when the operation cannot make it. */
function remadeSummary(
  op: Operation,
  input: Record<string, unknown>,
  connection: ScopedConnection,
  current: unknown,
): string | null {
  if (!op.summarize) return null;
  try {
    return op.summarize(input, connection, isUnreadable(current) ? undefined : current);
  } catch {
    return null;
  }
}
