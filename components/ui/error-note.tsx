import { ApiRequestError } from "@/lib/queries/api-client";

/** What the API said went wrong (its `detail`), or the error's own message. */
export function errorDetail(error: unknown): string {
  if (error instanceof ApiRequestError)
    return typeof error.detail === "string" ? error.detail : JSON.stringify(error.detail);
  return error instanceof Error ? error.message : String(error);
}

export function ErrorNote({ error, title }: { error: unknown; title?: string }) {
  return (
    <div
      role="alert"
      className="rounded-lg border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800 dark:border-rose-900 dark:bg-rose-950/50 dark:text-rose-200"
    >
      {title && <p className="font-semibold">{title}</p>}
      <p className="wrap-anywhere">{errorDetail(error)}</p>
    </div>
  );
}
