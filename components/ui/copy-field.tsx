"use client";

import { useId, useRef, useState } from "react";

/** A read-only field with a Copy button; where the clipboard API is refused, the text is selected for Ctrl+C. */
export function CopyField({ value, label }: { value: string; label: string }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<"idle" | "copied" | "selected">("idle");
  const id = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      inputRef.current?.focus();
      inputRef.current?.select();
      setState("selected");
    }
    setTimeout(() => setState("idle"), 2500);
  };
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          ref={inputRef}
          readOnly
          value={value}
          onFocus={(e) => e.currentTarget.select()}
          className="input font-mono text-xs"
        />
        <button type="button" onClick={() => void copy()} className="btn-primary shrink-0">
          {state === "copied" ? "Copied" : "Copy"}
        </button>
      </div>
      <p aria-live="polite" className="mt-1 min-h-4 text-xs text-zinc-500 dark:text-zinc-400">
        {state === "copied"
          ? "Copied to the clipboard."
          : state === "selected"
            ? "Selected: press Ctrl+C (⌘C) to copy."
            : ""}
      </p>
    </div>
  );
}
