import "server-only";
import { createHash } from "node:crypto";
import { callWithCredentials } from "@/lib/connections/call-with-credentials";
import { logger } from "@/lib/observability/logger";
import { describeFailure, type ScopedConnection } from "@/lib/operations/run-operation";
import type { Operation } from "@/lib/platforms/kit/operation-types";

// An approval shows the account's state before its write (an operation's `before` reader), and
// the person approves that state, not only the input: a write whose before-state changed under it
// does something else than what was shown ("$50 → $80" while the budget is now $120). These are
// the pieces that compare the state a request was filed with, the state shown, and the state now.

/** One read of the before-state: the state, or why it could not be read (shown, never fatal). */
export type BeforeRead = { state?: unknown; error?: string };

const UNREADABLE = "The current state could not be read";

/** The object's state before the write, read now; a failed read is described, not thrown. */
export async function readBeforeState(
  teamId: string,
  op: Operation,
  connection: ScopedConnection,
  input: Record<string, unknown>,
): Promise<BeforeRead> {
  try {
    return {
      state: await callWithCredentials(teamId, connection.id, (credentials) =>
        op.before!({ connection, credentials }, input),
      ),
    };
  } catch (e) {
    logger.info("approval before-state unavailable", { operation: op.id, error: String(e) });
    return { error: `${UNREADABLE}: ${describeFailure(e)}` };
  }
}

/** A read as the request stores and the dashboard shows it: the state, or `{error}`. */
export const storedBefore = (read: BeforeRead): unknown =>
  read.error !== undefined ? { error: read.error } : (read.state ?? null);

/** A stored or shown before-state that is only the sentence saying it could not be read. */
export const isUnreadable = (value: unknown) =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  Object.keys(value).length === 1 &&
  typeof (value as { error?: unknown }).error === "string" &&
  (value as { error: string }).error.startsWith(UNREADABLE);

/** JSON with object keys sorted, so that one state always reads the same whatever its key order. */
function canonical(value: unknown): string {
  if (value === undefined) return "null";
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * The fingerprint of a before-state as shown: what the dashboard sends back with an approval
 * (`seen_before`) to say which state the person approved. Every unreadable state has one
 * fingerprint (its sentence may vary from read to read; what the person saw is "unreadable").
 */
export const beforeFingerprint = (value: unknown): string =>
  `sha256:${createHash("sha256")
    .update(isUnreadable(value) ? '{"unreadable":true}' : canonical(value))
    .digest("hex")}`;

export const sameBefore = (a: unknown, b: unknown) => beforeFingerprint(a) === beforeFingerprint(b);

const MAX_VALUE = 200;
/** A value in a sentence: a string in quotes, anything else as JSON, cut when long. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return "empty";
  const text = typeof value === "string" ? `“${value}”` : canonical(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}
/** A sentence with its full stop, whether or not it came with one. */
const ended = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);
const fieldName = (key: string) => key.replace(/_/g, " ");

/**
 * What changed between two before-states, as the sentence a person reads: "The note changed
 * since this request was filed: it was “focus test”, it is now “two tabs test 2”." `since` says
 * against what ("this request was filed", "you reviewed this request").
 */
export function describeBeforeChange(was: unknown, now: unknown, since: string): string {
  if (isUnreadable(now))
    return `The state can no longer be read (it was ${shown(was)} when ${since}). ${ended((now as { error: string }).error)}`;
  if (isUnreadable(was)) return `The state could not be read when ${since}; it is now ${shown(now)}.`;
  const isRecord = (v: unknown): v is Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v);
  if (isRecord(was) && isRecord(now)) {
    const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])].filter(
      (k) => canonical(was[k]) !== canonical(now[k]),
    );
    if (keys.length === 1) {
      const [k] = keys;
      return `The ${fieldName(k)} changed since ${since}: it was ${shown(was[k])}, it is now ${shown(now[k])}.`;
    }
    if (keys.length > 1 && keys.length <= 5)
      return `The state changed since ${since}: ${keys
        .map((k) => `${fieldName(k)} was ${shown(was[k])}, is now ${shown(now[k])}`)
        .join("; ")}.`;
  }
  return `The state changed since ${since}: it was ${shown(was)}, it is now ${shown(now)}.`;
}

/** The state now, when it is all a sentence can name (what the approver saw is known only by its fingerprint). */
export const describeBeforeNow = (now: unknown): string =>
  isUnreadable(now)
    ? ended((now as { error: string }).error)
    : `It is now ${shown(now)}, as when the request was filed.`;

// The states this instance showed lately, by fingerprint: when an approval carries the fingerprint
// of a state that is neither the filed one nor the one now, the 409 can still name what the person
// saw. Bounded, and only a help for the sentence: a miss (another instance, a restart) names the
// filed state and the state now instead.
const SHOWN_MAX = 500;
const shownStates = new Map<string, unknown>();

/** Remembers a state the dashboard is about to show, under the fingerprint it is approved by. */
export function rememberShown(fingerprint: string, state: unknown) {
  shownStates.delete(fingerprint);
  shownStates.set(fingerprint, state);
  if (shownStates.size > SHOWN_MAX) shownStates.delete(shownStates.keys().next().value!);
}

/** The state shown under this fingerprint, when this instance showed it lately. */
export const shownState = (fingerprint: string): { state: unknown } | null =>
  shownStates.has(fingerprint) ? { state: shownStates.get(fingerprint) } : null;

/** A pending request's before-state read again now, beside the one it was filed with. */
export type CurrentBefore = {
  /** The state now (or `{error}` when it could not be read). */
  current: unknown;
  /** Whether it differs from the state the request was filed with. */
  changed: boolean;
  /** What the approver sends back as `seen_before` when this is the state they were shown. */
  fingerprint: string;
  /** The request's summary made again from the state now. */
  summary: string;
  /** When it changed: the sentence naming both values. */
  change: string | null;
};
