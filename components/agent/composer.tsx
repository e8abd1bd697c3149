"use client";

import { useId } from "react";
import { MAX_AGENT_MESSAGE } from "@/lib/schemas/agents";

/**
 * The message box: Enter sends, Shift+Enter starts a new line. `disabledReason` says why nothing
 * can be sent now (a turn runs or waits for a person); the box keeps what was typed.
 */
export function MessageField({
  value,
  onChange,
  onSend,
  disabled = false,
  label = "Message",
  placeholder = "Ask the agent…",
  describedBy,
  rows = 2,
  hideLabel = false,
}: {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  disabled?: boolean;
  label?: string;
  placeholder?: string;
  describedBy?: string;
  rows?: number;
  /** The label is for screen readers only (the composer, whose place says what it is). */
  hideLabel?: boolean;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className={hideLabel ? "sr-only" : "mb-1 block text-sm font-medium"}>
        {label}
      </label>
      <textarea
        id={id}
        className="input resize-y"
        rows={rows}
        maxLength={MAX_AGENT_MESSAGE}
        value={value}
        placeholder={placeholder}
        disabled={disabled}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== "Enter" || e.shiftKey || e.nativeEvent.isComposing) return;
          e.preventDefault();
          if (value.trim()) onSend();
        }}
      />
    </div>
  );
}

// Full width on a phone (over the page's padding), a tab on the page's bottom edge on a wide screen;
// clear of a phone's home indicator.
const COMPOSER = [
  "sticky bottom-0 z-10 -mx-4 border-t border-zinc-200 bg-zinc-50/95 px-4 pt-3 backdrop-blur",
  "pb-[max(0.75rem,env(safe-area-inset-bottom))] lg:mx-0 lg:rounded-t-xl lg:border-x",
  "dark:border-zinc-800 dark:bg-zinc-950/95",
].join(" ");

/** The conversation's composer, kept at the bottom of the screen. */
export function Composer({
  value,
  onChange,
  onSend,
  disabledReason,
  sending,
}: {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  disabledReason: string | null;
  sending: boolean;
}) {
  const helpId = useId();
  const disabled = disabledReason !== null;
  return (
    <form
      aria-label="Send a message"
      className={COMPOSER}
      onSubmit={(e) => {
        e.preventDefault();
        if (!disabled && value.trim()) onSend();
      }}
    >
      <div className="flex items-end gap-2">
        <div className="min-w-0 flex-1">
          <MessageField
            value={value}
            onChange={onChange}
            onSend={() => !disabled && onSend()}
            disabled={disabled}
            label="Your message"
            hideLabel
            describedBy={helpId}
          />
        </div>
        <button type="submit" className="btn-primary mb-px" disabled={disabled || !value.trim()}>
          {sending ? "Sending…" : "Send"}
        </button>
      </div>
      <p
        id={helpId}
        role="status"
        data-testid="composer-status"
        className="mt-1 text-xs text-zinc-600 dark:text-zinc-400"
      >
        {disabledReason ?? "Enter sends · Shift+Enter starts a new line"}
      </p>
    </form>
  );
}
