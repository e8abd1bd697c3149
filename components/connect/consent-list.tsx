import type { ConsentText } from "@/lib/operations/consent-text";

/**
 * What the account's owner allows by connecting: what Patchbay can read, then, set apart, what
 * it can change, and the scopes asked of the provider in a disclosure. The lines come from
 * consentTextFor (the catalogue and the type's scopes), never from the page.
 */
export function ConsentList({ text, providerName }: { text: ConsentText; providerName: string }) {
  return (
    <div className="mt-3 space-y-4 text-sm">
      <ConsentGroup
        id="consent-reads"
        title="Can read"
        lines={text.reads}
        mark="✓"
        markClass="text-emerald-600 dark:text-emerald-400"
      />
      {text.writes.length > 0 && (
        <ConsentGroup
          id="consent-writes"
          title="Can change"
          note="These are changes made in your account."
          lines={text.writes}
          mark="✎"
          markClass="text-amber-600 dark:text-amber-400"
          className="rounded-lg border border-amber-200 bg-amber-50 p-3 dark:border-amber-900/60 dark:bg-amber-950/40"
        />
      )}
      {text.scopes.length > 0 && (
        <details className="group rounded-lg border border-zinc-200 dark:border-zinc-800">
          <summary className="cursor-pointer select-none px-3 py-2 text-zinc-600 marker:text-zinc-400 dark:text-zinc-300">
            {text.scopesSetOnApp ? `Permissions of Patchbay's ${providerName} app` : `Scopes asked of ${providerName}`}{" "}
            ({text.scopes.length})
          </summary>
          <ul
            className="space-y-2 border-t border-zinc-200 px-3 py-3 dark:border-zinc-800"
            aria-label={`Scopes asked of ${providerName}`}
          >
            {text.scopes.map((scope) => (
              <li key={scope.name} className="min-w-0">
                <code className="break-all rounded bg-zinc-100 px-1 py-0.5 font-mono text-xs text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200">
                  {scope.name}
                </code>
                {scope.changes && (
                  <span className="ml-1.5 whitespace-nowrap text-xs font-medium text-amber-700 dark:text-amber-400">
                    can change
                  </span>
                )}
                <p className="mt-0.5 text-xs leading-5 text-zinc-600 dark:text-zinc-400">{scope.allows}</p>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

function ConsentGroup(props: {
  id: string;
  title: string;
  note?: string;
  lines: string[];
  mark: string;
  markClass: string;
  className?: string;
}) {
  return (
    <section aria-labelledby={props.id} className={props.className}>
      <h2 id={props.id} className="text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">
        {props.title}
      </h2>
      {props.note && <p className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">{props.note}</p>}
      <ul className="mt-2 space-y-2">
        {props.lines.map((line) => (
          <li key={line} className="flex gap-2">
            <span aria-hidden className={`mt-0.5 shrink-0 ${props.markClass}`}>
              {props.mark}
            </span>
            <span className="min-w-0">{line}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
