"use client";

import { useId } from "react";
import { searchProblem } from "@/lib/text/search-words";
import { useDebouncedText } from "@/components/data-table/use-debounced-text";

/**
 * The Logs page's search (GET /v1/logs?q=…): the URL's `q` after typing pauses or at once on
 * Enter; Escape or the clear button empties it. A q the API would refuse says why beside the box
 * and is not sent.
 */
export function LogSearchBox({ value, onChange }: { value: string | undefined; onChange: (v?: string) => void }) {
  const id = useId();
  const { text, type, commit, clear } = useDebouncedText(value, onChange, searchProblem);
  const trimmed = text.trim();
  const problem = trimmed ? searchProblem(trimmed) : null;
  return (
    <div className="sm:col-span-2 lg:col-span-4">
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-zinc-600 dark:text-zinc-400">
        Search
      </label>
      <div className="relative">
        <input
          id={id}
          type="text"
          role="searchbox"
          className="input pr-20"
          value={text}
          placeholder="Words in the operation, source, input, output or error"
          spellCheck={false}
          autoComplete="off"
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-hint`}
          onChange={(e) => type(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") commit(text);
            else if (e.key === "Escape" && text) {
              e.preventDefault();
              clear();
            }
          }}
        />
        {text && (
          <button
            type="button"
            onClick={clear}
            className="absolute inset-y-1 right-1 rounded-md px-2 text-xs font-medium text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
          >
            Clear<span className="sr-only"> search</span>
          </button>
        )}
      </div>
      <p
        id={`${id}-hint`}
        role={problem ? "alert" : undefined}
        className={`mt-1 text-xs ${problem ? "text-rose-700 dark:text-rose-300" : "text-zinc-600 dark:text-zinc-400"}`}
      >
        {problem
          ? `Not searched: ${problem.replace(/^q /, "the search ")}.`
          : "Every word must match the start of a word; punctuation only separates words."}
      </p>
    </div>
  );
}
