"use client";

import { useState } from "react";

/** A signing secret shown once, after creating an endpoint or rotating its secret, with a Copy button. */
export function SecretReveal({
  secret,
  children,
  onDone,
}: {
  secret: string;
  children?: React.ReactNode;
  onDone: () => void;
}) {
  const [copied, setCopied] = useState<"no" | "yes" | "refused">("no");
  return (
    <div className="space-y-4">
      <div
        data-testid="webhook-secret"
        className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-800 dark:bg-amber-950/40"
      >
        <p role="status" className="font-medium text-amber-900 dark:text-amber-200">
          Copy the signing secret now: it is shown only this once and cannot be recovered. If it is lost, rotate the
          secret to get a new one.
        </p>
        <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-center">
          <code
            data-testid="webhook-secret-value"
            className="block flex-1 break-all rounded-md bg-white px-3 py-2 font-mono text-xs text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100"
          >
            {secret}
          </code>
          <button
            type="button"
            className="btn-secondary"
            onClick={() => {
              // Both outcomes are handled: the promise can't reject.
              void navigator.clipboard.writeText(secret).then(
                () => setCopied("yes"),
                () => setCopied("refused"),
              );
            }}
          >
            {copied === "yes" ? "Copied" : "Copy"}
          </button>
        </div>
        {copied === "refused" && (
          <p className="mt-2 text-xs text-amber-900 dark:text-amber-200">
            The browser refused the clipboard: select the secret and copy it by hand.
          </p>
        )}
        <div className="mt-3 text-zinc-700 dark:text-zinc-300">
          Receivers verify each request&apos;s <code className="font-mono text-xs">webhook-signature</code> header with
          it (Standard Webhooks: <code className="font-mono text-xs">new Webhook(secret).verify(body, headers)</code>).
          {children}
        </div>
      </div>
      <div className="flex justify-end">
        <button type="button" className="btn-primary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
