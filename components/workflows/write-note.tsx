"use client";

import { useId } from "react";
import { plural } from "@/lib/text/plural";

/** One write node: what it is, where it writes, and whether each write waits for a person's approval. */
export type WriteNode = {
  id: string;
  label: string;
  operation: string;
  connection: string | null;
  /** Each write waits for a person's approval (`approval: "required"`). */
  approval?: boolean;
};

/**
 * Which nodes write and where, and what that means: a run makes the changes of the writes that do
 * not ask for approval without anyone's yes, so only a team owner can activate (or, while
 * inactive, run) such a workflow; a write that asks first runs only on a person's approval, so a
 * workflow whose every write asks is any member's to activate (CONTRACT §13).
 */
export function WriteNote({ writes, isOwner }: { writes: WriteNode[]; isOwner: boolean }) {
  if (!writes.length) return null;
  const unapproved = writes.filter((w) => !w.approval);
  const asking = writes.filter((w) => w.approval);
  return (
    <div
      role="note"
      data-testid="write-note"
      className={`rounded-lg border p-3 text-sm ${
        unapproved.length
          ? "border-amber-200 bg-amber-50 text-amber-950 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-100"
          : "border-sky-200 bg-sky-50 text-sky-950 dark:border-sky-900/60 dark:bg-sky-950/40 dark:text-sky-100"
      }`}
    >
      {unapproved.length > 0 && (
        <WriteList
          title={`${plural(unapproved.length, "node writes", "nodes write")} to a provider, without an approval:`}
          writes={unapproved}
        />
      )}
      {asking.length > 0 && (
        <WriteList
          title={`${plural(asking.length, "node writes", "nodes write")} only after a person's approval (each write waits on the Approvals page):`}
          writes={asking}
          className={unapproved.length ? "mt-2" : undefined}
        />
      )}
      <p className="mt-2">
        {unapproved.length ? (
          <>
            Only a team owner can activate a workflow with write nodes that do not ask for approval.{" "}
            {isOwner
              ? "You are an owner of this team."
              : "You are a member: save it inactive and ask an owner to activate it."}
          </>
        ) : (
          "Every write asks for approval first, so any member of the team can activate and run it."
        )}
      </p>
    </div>
  );
}

function WriteList({ title, writes, className }: { title: string; writes: WriteNode[]; className?: string }) {
  return (
    <div className={className}>
      <p className="font-semibold">{title}</p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        {writes.map((w) => (
          <li key={w.id}>
            <span className="font-medium">{w.label || w.id}</span> (
            <span className="font-mono text-xs">{w.operation}</span>) writes to{" "}
            <span className="font-medium">{w.connection ?? "the connection chosen for it"}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The Active switch (a checkbox with the switch role); locked off, with the reason, for a member
 * when the workflow writes. A manual workflow has no schedule to turn on: with writes, Active is
 * an owner's leave for any member to start it; without, there is nothing to switch.
 */
export function ActiveSwitch({
  checked,
  onChange,
  lockedReason,
  manual,
  writes,
  approvedOnly = false,
  startedBy = "its schedule",
}: {
  checked: boolean;
  onChange: (v: boolean) => void;
  lockedReason: string | null;
  manual: boolean;
  writes: boolean;
  /** Every write asks for approval: anyone in the team may start it, active or not. */
  approvedOnly?: boolean;
  /** What runs it on its own while it is on (not manual): its schedule, a POST to its URL, its events. */
  startedBy?: string;
}) {
  const id = useId();
  const locked = lockedReason !== null;
  if (manual && !writes)
    return (
      <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="manual-note">
        Only when started: nothing runs it on its own, and anyone in the team can start it.
      </p>
    );
  const help = !manual
    ? `On: ${startedBy} runs it. Off: it runs only when someone starts it.`
    : approvedOnly
      ? "On: it can also be started through the API. Anyone in the team may start it here either way: each write waits for a person's approval."
      : "On: anyone in the team may start it, its writes included. Off: only an owner may start it.";
  return (
    <div className="flex items-start gap-3">
      <span className="relative mt-0.5 inline-flex">
        <input
          id={id}
          type="checkbox"
          role="switch"
          className="peer absolute inset-0 z-10 cursor-pointer opacity-0 disabled:cursor-not-allowed"
          checked={checked && !locked}
          disabled={locked}
          onChange={(e) => onChange(e.target.checked)}
          aria-describedby={`${id}-help`}
        />
        <span
          aria-hidden
          className="relative h-5 w-9 rounded-full bg-zinc-300 transition-colors peer-checked:bg-indigo-600 peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-indigo-600 peer-disabled:opacity-60 after:absolute after:left-0.5 after:top-0.5 after:h-4 after:w-4 after:rounded-full after:bg-white after:shadow after:transition-transform peer-checked:after:translate-x-4 dark:bg-zinc-700"
        />
      </span>
      <div className="text-sm">
        <label htmlFor={id} className="font-medium">
          Active
        </label>
        <p id={`${id}-help`} className="text-zinc-600 dark:text-zinc-400">
          {lockedReason ?? help}
        </p>
      </div>
    </div>
  );
}
