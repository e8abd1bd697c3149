"use client";

import { useState } from "react";

/**
 * A small Copy button for a block of text shown beside it (a configuration snippet). Its name says
 * what it copies; the outcome is announced. Where the clipboard is refused, the person selects
 * the text themselves (it is on screen).
 */
export function CopyButton({ text, what }: { text: string; what: string }) {
  const [state, setState] = useState<"idle" | "copied" | "refused">("idle");
  const copy = () => {
    // Both outcomes are handled: the promise cannot reject.
    void navigator.clipboard.writeText(text).then(
      () => setState("copied"),
      () => setState("refused"),
    );
    setTimeout(() => setState("idle"), 2500);
  };
  return (
    <span className="inline-flex items-center gap-2">
      <button type="button" className="btn-secondary px-2 py-1 text-xs" onClick={copy}>
        Copy<span className="sr-only"> {what}</span>
      </button>
      <span aria-live="polite" className="text-xs text-zinc-500 dark:text-zinc-400">
        {state === "copied" ? "Copied to the clipboard." : state === "refused" ? "Copy refused: select the text." : ""}
      </span>
    </span>
  );
}
