import { ApiRequestError } from "@/lib/queries/api-client";

/** The API's own `detail` when a request failed, with a retry. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const detail =
    error instanceof ApiRequestError ? error.message : error instanceof Error ? error.message : String(error);
  const status = error instanceof ApiRequestError ? error.status : null;
  return (
    <div
      role="alert"
      className="m-4 rounded-lg border border-rose-200 bg-rose-50 p-4 text-sm text-rose-900 dark:border-rose-900/60 dark:bg-rose-950/40 dark:text-rose-200"
    >
      <p className="font-semibold">Could not load this list{status ? ` (HTTP ${status})` : ""}</p>
      <p className="mt-1 wrap-anywhere">{detail}</p>
      {onRetry && (
        <button type="button" onClick={onRetry} className="btn-secondary mt-3">
          Try again
        </button>
      )}
    </div>
  );
}
