import type { ApprovalDetail } from "@/lib/queries/approvals";

/**
 * Says plainly that the account changed since the request was filed, with both values: the
 * summary and state shown beside it are the account as it is now, which is what approving replaces.
 * Nothing when it did not change (or was not read again: a decided request).
 */
export function BeforeChanged({ approval: a, testId }: { approval: ApprovalDetail; testId: string }) {
  if (!a.changed) return null;
  return (
    <div
      role="note"
      data-testid={testId}
      className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-950 dark:border-amber-800/70 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <p className="font-semibold">Changed since this request was filed</p>
      <p className="mt-0.5 wrap-anywhere">
        {a.change ?? "The account's state is not what it was when the request was filed."} Approving writes over the
        state as it is now.
      </p>
    </div>
  );
}
