import { detailText } from "@/components/overview/format";
import { Alert } from "@/components/ui/alert";

export function SkeletonBlock({ className = "h-24" }: { className?: string }) {
  return <div aria-hidden className={`animate-pulse rounded-lg bg-zinc-100 dark:bg-zinc-800 ${className}`} />;
}

/** The API's `detail`, said plainly, with a retry. */
export function ErrorNote({ what, error, onRetry }: { what: string; error: unknown; onRetry?: () => void }) {
  return (
    <Alert>
      <p>
        Could not load {what}: {detailText(error)}
      </p>
      {onRetry && (
        <button
          type="button"
          onClick={onRetry}
          className="mt-2 font-medium underline underline-offset-2 focus-visible:outline focus-visible:outline-2 focus-visible:outline-rose-600"
        >
          Try again
        </button>
      )}
    </Alert>
  );
}
