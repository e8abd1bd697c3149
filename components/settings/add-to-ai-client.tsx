"use client";

import { useId, useSyncExternalStore } from "react";
import Link from "next/link";
import { AI_CLIENTS, HEADER_CLIENTS_NOTE, withUrl } from "@/lib/mcp/ai-clients";
import { CopyField } from "@/components/ui/copy-field";
import { CopyButton } from "@/components/ui/copy-button";
import { SCROLL_FOCUS } from "@/components/ui/scroll-focus";

// A disclosure row: no browser triangle (one is drawn, turning when open), a visible focus ring.
const SUMMARY = [
  "flex cursor-pointer list-none items-center gap-2 rounded py-2 font-medium [&::-webkit-details-marker]:hidden",
  "focus-visible:outline focus-visible:outline-2 focus-visible:outline-indigo-600",
].join(" ");
const SNIPPET = "mt-1 overflow-x-auto rounded-md bg-zinc-100 p-2 font-mono text-xs dark:bg-zinc-800";

const noSubscription = () => () => {};

/**
 * `${origin}/mcp` of the page the person is on, as the dashboard computes other addresses in the
 * browser; null while rendering on the server (the field appears once the page hydrates).
 */
function useMcpUrlOfThisPage(): string | null {
  return useSyncExternalStore(
    noSubscription,
    () => `${window.location.origin}/mcp`,
    () => null,
  );
}

/**
 * The MCP URL to paste, and each AI client's steps (lib/mcp/ai-clients) folded under its name,
 * with its configuration to copy. `url` defaults to this page's origin + /mcp.
 */
export function AddToAiClient({ url }: { url?: string }) {
  const pageUrl = useMcpUrlOfThisPage();
  const mcpUrl = url ?? pageUrl;
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      data-testid="add-to-ai-client"
      className="rounded-lg border border-zinc-200 p-3 text-sm sm:p-4 dark:border-zinc-800"
    >
      <h3 id={headingId} className="font-semibold">
        Add Patchbay to your AI client
      </h3>
      <p className="mt-0.5 text-zinc-600 dark:text-zinc-400">
        Paste this URL into Claude, ChatGPT, Cursor or VS Code. The client sends you here to sign in, and you choose the
        team, MCP server and connections it may use; writes stay off unless you allow them.
      </p>
      <div className="mt-3 max-w-xl">
        {mcpUrl ? (
          <CopyField label="MCP URL" value={mcpUrl} />
        ) : (
          <div className="h-[4.75rem] animate-pulse rounded-lg bg-zinc-100 dark:bg-zinc-800" aria-hidden="true" />
        )}
      </div>
      <ul className="mt-1 divide-y divide-zinc-200 border-y border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
        {AI_CLIENTS.map((client) => (
          <li key={client.id}>
            <details className="group">
              <summary className={SUMMARY}>
                <span
                  aria-hidden="true"
                  className="inline-block text-zinc-500 transition-transform group-open:rotate-90 dark:text-zinc-400"
                >
                  ▸
                </span>
                <span>{client.name}</span>
              </summary>
              <div className="space-y-2 pb-3 pl-5 text-zinc-700 dark:text-zinc-300">
                <p>{client.about}</p>
                {client.snippet && mcpUrl && (
                  <div>
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <span className="text-xs font-medium">{client.snippet.label}</span>
                      <CopyButton text={withUrl(client.snippet.code, mcpUrl)} what={client.snippet.label} />
                    </div>
                    <pre tabIndex={0} aria-label={client.snippet.label} className={`${SNIPPET} ${SCROLL_FOCUS}`}>
                      <code>{withUrl(client.snippet.code, mcpUrl)}</code>
                    </pre>
                  </div>
                )}
                <p className="text-xs">
                  <a
                    className="text-indigo-700 underline underline-offset-2 dark:text-indigo-300"
                    href={client.docs.url}
                  >
                    {client.docs.label}
                  </a>
                </p>
              </div>
            </details>
          </li>
        ))}
      </ul>
      <p className="mt-3 text-xs text-zinc-600 dark:text-zinc-400">
        {HEADER_CLIENTS_NOTE}{" "}
        <Link className="text-indigo-700 underline underline-offset-2 dark:text-indigo-300" href="/docs/mcp">
          How sign-in works, static tokens and narrowing
        </Link>
      </p>
    </section>
  );
}
