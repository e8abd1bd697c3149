import { detailText } from "@/components/overview/format";

export function SkeletonBlock({ className = "h-24" }: { className?: string }) {
  return <div aria-hidden className={`animate-pulse rounded-lg bg-zinc-100 dark:bg-zinc-800 ${className}`} />;
}

/** The API's `detail`, said plainly, with a retry. */
export function ErrorNote({ what, error, onRetry }: { what: string; error: unknown; onRetry?: () => void }) {
  return (
    <div role="alert" className="rounded-lg border border-rose-200 bg-rose-50 p-3 text-sm text-rose-800 dark:border-rose-900 dark:bg-rose-950/60 dark:text-rose-200">
      <p>
        Could not load {what}: {detailText(error)}
      </p>
      {onRetry && (
        <button type="button" onClick={onRetry} className="mt-2 font-medium underline underline-offset-2 focus-visible:outline focus-visible:outline-2 focus-visible:outline-rose-600">
          Try again
        </button>
      )}
    </div>
  );
}
