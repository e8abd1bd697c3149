import { ApiRequestError } from "@/lib/queries/api-client";
import { errorDetail } from "@/components/ui/error-note";
import { readableProblem } from "@/components/workflows/editor-model";

/**
 * Why a save failed, near the form: a 400 names every problem at once ("a; b; c"), one per
 * line, each with the node it is about; a 403 or anything else says its one reason.
 */
export function SaveProblems({ error, problems, ids }: { error?: unknown; problems?: string[]; ids: string[] }) {
  const list =
    problems ??
    (error instanceof ApiRequestError && error.status === 400 && typeof error.detail === "string"
      ? error.detail.split("; ")
      : [errorDetail(error)]);
  const forbidden = error instanceof ApiRequestError && error.status === 403;
  return (
    <div
      role="alert"
      data-testid="save-problems"
      className="rounded-lg border border-rose-200 bg-rose-50 p-3 text-sm text-rose-800 dark:border-rose-900 dark:bg-rose-950/60 dark:text-rose-200"
    >
      <p className="font-semibold">
        {forbidden
          ? "Not saved: this needs a team owner"
          : list.length === 1
            ? "Not saved: fix this first"
            : `Not saved: fix these ${list.length} problems first`}
      </p>
      {list.length === 1 ? (
        <p className="mt-1 wrap-anywhere">{readableProblem(list[0], ids)}</p>
      ) : (
        <ul className="mt-1 list-disc space-y-0.5 pl-5">
          {list.map((p, i) => (
            <li key={i} className="wrap-anywhere">
              {readableProblem(p, ids)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
