"use client";

import type { UseMutationResult } from "@tanstack/react-query";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { errorDetail } from "@/components/ui/error-note";

// Revoking one row of a list (a token, an API key, a connected app): the row's Revoke link, and
// the confirmation that runs the revocation and shows its failure.

/** A row's Revoke link; `label` says what it revokes (“Revoke token Laptop”). */
export function RevokeButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button
      type="button"
      className="text-sm font-medium text-rose-700 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-rose-600 dark:text-rose-400"
      onClick={onClick}
      aria-label={label}
    >
      Revoke
    </button>
  );
}

/**
 * The confirmation of revoking `target`, open while there is one: confirming runs `revoke` on it,
 * whose failure shows below `children`; Cancel calls `onCancel` (which clears the target) and
 * forgets the failure.
 */
export function RevokeDialog<T, Data>({
  target,
  title,
  confirmLabel,
  revoke,
  onCancel,
  children,
}: {
  target: T | null;
  title: string;
  confirmLabel: string;
  revoke: UseMutationResult<Data, Error, T>;
  onCancel: () => void;
  children: React.ReactNode;
}) {
  return (
    <ConfirmDialog
      open={target !== null}
      title={title}
      confirmLabel={confirmLabel}
      pending={revoke.isPending}
      onConfirm={() => target !== null && revoke.mutate(target)}
      onCancel={() => {
        onCancel();
        revoke.reset();
      }}
    >
      {children}
      {revoke.isError && (
        <p role="alert" className="mt-2 text-rose-700 dark:text-rose-400">
          {errorDetail(revoke.error)}
        </p>
      )}
    </ConfirmDialog>
  );
}
