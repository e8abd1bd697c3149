"use client";

import { Dialog } from "@/components/ui/dialog";
import { CopyField } from "@/components/ui/copy-field";
import { CopyButton } from "@/components/ui/copy-button";

/** A shell command that starts a run through the URL, with a key that makes a retried POST start nothing new. */
const curlExample = (url: string) =>
  [
    `curl -X POST '${url}' \\`,
    `  -H 'content-type: application/json' \\`,
    `  -H 'Idempotency-Key: order-1042' \\`,
    `  -d '{"order_id": 1042, "status": "paid"}'`,
  ].join("\n");

/**
 * A webhook trigger's URL, shown the one time the server gives it (the save that made it, or a
 * rotation): it is stored only as a hash, so nobody can read it back later.
 */
export function WebhookUrlDialog({
  url,
  title,
  onClose,
  closeLabel = "Done",
}: {
  url: string | null;
  title: string;
  onClose: () => void;
  closeLabel?: string;
}) {
  return (
    <Dialog open={url !== null} onClose={onClose} title={title} className="max-w-2xl">
      {url && (
        <div className="space-y-4 text-sm" data-testid="webhook-url-dialog">
          <p
            role="note"
            className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-amber-950 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-100"
          >
            <span className="font-semibold">Copy it now: it will not be shown again.</span> Patchbay keeps only a
            fingerprint of it. Anyone who has the URL can start this workflow; if it leaks, rotate it on the
            workflow&apos;s page.
          </p>
          <CopyField label="Webhook URL" value={url} />
          <div>
            <div className="mb-1 flex flex-wrap items-center justify-between gap-2">
              <p className="font-medium" id="webhook-curl-label">
                Try it
              </p>
              <CopyButton text={curlExample(url)} what="the curl command" />
            </div>
            <pre
              aria-labelledby="webhook-curl-label"
              tabIndex={0}
              className="overflow-x-auto rounded-lg border border-zinc-200 bg-zinc-50 p-3 font-mono text-xs text-zinc-900 dark:border-zinc-800 dark:bg-zinc-950 dark:text-zinc-100"
              data-testid="webhook-curl"
            >
              {curlExample(url)}
            </pre>
            <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
              The JSON object you send is <code className="font-mono">{"{{trigger.body…}}"}</code> in every node (at
              most 256 KB). The same <code className="font-mono">Idempotency-Key</code> within 24 hours starts nothing
              new and answers with the first run.
            </p>
          </div>
          <div className="flex justify-end">
            <button type="button" className="btn-primary" onClick={onClose}>
              {closeLabel}
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
