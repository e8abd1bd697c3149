"use client";

import Link from "next/link";
import { useRef } from "react";
import { usePanelKeyboard } from "@/components/ui/use-panel-keyboard";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { JsonView } from "@/components/logs/json-view";
import { KindBadge } from "@/components/operations/kind-badge";
import { connectionLabel, type CatalogueOperation } from "@/lib/queries/operations";

const term = "text-zinc-500 dark:text-zinc-400";
const show = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/** One catalogue entry in full: what it does, who can run it, its input fields and an example input. */
export function OperationDetailPanel({
  team,
  operation: op,
  onClose,
}: {
  team: string;
  operation: CatalogueOperation;
  onClose: () => void;
}) {
  const closeRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  usePanelKeyboard(panelRef, closeRef, onClose, op.id);
  // A built-in utility of workflows (format a text, filter rows): no connection, no provider.
  const builtIn = op.connection_types.length === 0;

  return (
    <aside
      ref={panelRef}
      role="dialog"
      aria-modal="true"
      aria-labelledby="operation-detail-title"
      className="fixed inset-y-0 right-0 z-40 flex w-full flex-col border-l border-zinc-200 bg-white shadow-2xl sm:w-[34rem] dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex items-start justify-between gap-3 border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
        <div className="min-w-0">
          <h2 id="operation-detail-title" className="font-semibold">
            {op.title}
          </h2>
          <p className={`break-all font-mono text-xs ${term}`}>{op.id}</p>
        </div>
        <button
          ref={closeRef}
          type="button"
          onClick={onClose}
          className="btn-secondary shrink-0 px-3 py-1.5"
          aria-label="Close operation detail"
        >
          ✕
        </button>
      </div>
      <div className="flex-1 space-y-5 overflow-y-auto p-4 text-sm">
        <p className="whitespace-pre-line text-zinc-800 dark:text-zinc-200">{op.description}</p>
        <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-2">
          <dt className={term}>Kind</dt>
          <dd>
            <KindBadge kind={op.kind} requiresApproval={op.requires_approval} />
          </dd>
          <dt className={term}>Credits</dt>
          <dd>{op.credits} per run</dd>
          {op.kind === "read" && (
            <>
              <dt className={term}>Cached for</dt>
              <dd>
                {op.cache_ttl_seconds > 0
                  ? `${op.cache_ttl_seconds} s (the same input on the same connection is answered from cache)`
                  : "not cached"}
              </dd>
            </>
          )}
          {op.tool_name && (
            <>
              <dt className={term}>MCP tool</dt>
              <dd className="font-mono text-xs">{op.tool_name}</dd>
            </>
          )}
          <dt className={term}>Platforms</dt>
          <dd>{builtIn ? "Built-in" : op.connection_types.map((t) => t.name).join(", ")}</dd>
        </dl>

        <div>
          <h3 id="operation-connections-title" className="mb-2 font-semibold">
            Your connections that can run it
          </h3>
          {op.connections.length ? (
            <ul className="space-y-1" aria-labelledby="operation-connections-title">
              {op.connections.map((c) => (
                <li key={c.id} className="flex flex-wrap items-baseline gap-x-2">
                  <span className="font-medium">{connectionLabel(c)}</span>
                  <span className={`font-mono text-xs ${term}`}>{c.id}</span>
                  {c.external_id && <span className={`text-xs ${term}`}>account {c.external_id}</span>}
                </li>
              ))}
            </ul>
          ) : builtIn ? (
            <p className="text-zinc-600 dark:text-zinc-400" data-testid="operation-built-in">
              Built-in — needs no connection; used in workflows.
            </p>
          ) : (
            <p className="text-zinc-600 dark:text-zinc-400">
              No connection of this type yet.{" "}
              <Link
                href={`/${team}/connections`}
                className="font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300"
              >
                Add a connection
              </Link>{" "}
              to run it.
            </p>
          )}
        </div>

        <div>
          <h3 id="operation-fields-title" className="mb-2 font-semibold">
            Input fields
          </h3>
          {op.fields.length === 0 ? (
            <p className="text-zinc-600 dark:text-zinc-400">
              None: it takes no input{builtIn ? "" : " besides the connection"}.
            </p>
          ) : (
            <ul
              className="divide-y divide-zinc-100 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
              aria-labelledby="operation-fields-title"
            >
              {op.fields.map((f) => (
                <li key={f.name} className="space-y-1 px-3 py-2" data-testid="operation-field">
                  <div className="flex flex-wrap items-baseline gap-x-2">
                    <span className="font-mono text-xs font-semibold text-zinc-900 dark:text-zinc-100">{f.name}</span>
                    <span className={`text-xs ${term}`}>{f.type}</span>
                    <span className={`text-xs font-medium ${f.required ? "text-rose-700 dark:text-rose-300" : term}`}>
                      {f.required ? "required" : "optional"}
                    </span>
                  </div>
                  {f.description && <p className="text-zinc-700 dark:text-zinc-300">{f.description}</p>}
                  {f.default !== undefined && (
                    <p className={`text-xs ${term}`}>
                      Default <code className="font-mono text-zinc-800 dark:text-zinc-200">{show(f.default)}</code>
                    </p>
                  )}
                  {f.options && f.options.length > 0 && (
                    <p className={`text-xs ${term}`}>
                      One of{" "}
                      {f.options.map((o, i) => (
                        <span key={i}>
                          {i > 0 && ", "}
                          <code className="font-mono text-zinc-800 dark:text-zinc-200">{show(o)}</code>
                        </span>
                      ))}
                    </p>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>

        <div>
          <h3 id="operation-example-title" className="mb-2 font-semibold">
            Example input
          </h3>
          <ScrollRegion
            label="Example input"
            className="rounded-lg border border-zinc-200 px-3 py-2 font-mono text-xs dark:border-zinc-800"
          >
            <JsonView value={op.example} />
          </ScrollRegion>
        </div>

        <Link href={`/${team}/logs?operation_id=${encodeURIComponent(op.id)}`} className="btn-secondary w-full">
          Logs of this operation
        </Link>
      </div>
    </aside>
  );
}
