import { ScrollRegion } from "@/components/ui/scroll-region";
import { SCROLL_FOCUS } from "@/components/ui/scroll-focus";

// The building blocks of the docs pages (webhooks, operations): headings that link to
// themselves, code, scrollable tables and code blocks, in one style.

// Links in running text are underlined: colour alone does not tell them apart (WCAG 1.4.1).
export const link =
  "text-indigo-700 underline underline-offset-2 hover:text-indigo-900 dark:text-indigo-300 dark:hover:text-indigo-200";
const preClass = "mt-3 overflow-x-auto rounded-lg bg-zinc-100 p-3 font-mono text-xs leading-relaxed dark:bg-zinc-800";

export function C({ children, className = "" }: { children: React.ReactNode; className?: string }) {
  return (
    <code className={`rounded bg-zinc-100 px-1 font-mono text-[0.9em] dark:bg-zinc-800 ${className}`}>{children}</code>
  );
}

/** `wrap`: long lines wrap on screen (copying still gives the exact text). */
export function Pre({ children, label, wrap = false }: { children: string; label?: string; wrap?: boolean }) {
  return (
    <pre
      tabIndex={0}
      className={`${preClass} ${SCROLL_FOCUS}${wrap ? " whitespace-pre-wrap break-all" : ""}`}
      aria-label={label}
    >
      <code>{children}</code>
    </pre>
  );
}

export function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section id={id} className="mt-12 border-t border-zinc-200 pt-6 dark:border-zinc-800">
      <h2 className="text-2xl font-semibold">
        <a href={`#${id}`} className="hover:underline">
          {title}
        </a>
      </h2>
      <div className="mt-3 space-y-3 text-zinc-700 dark:text-zinc-300">{children}</div>
    </section>
  );
}

export function H3({ id, children }: { id?: string; children: React.ReactNode }) {
  return (
    <h3 id={id} className="pt-4 text-lg font-semibold text-zinc-900 dark:text-zinc-100">
      {children}
    </h3>
  );
}

export function Table({ head, rows }: { head: React.ReactNode[]; rows: React.ReactNode[][] }) {
  return (
    <ScrollRegion label="Table">
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="text-xs uppercase tracking-wide text-zinc-500 dark:text-zinc-400">
            {head.map((h, i) => (
              <th key={i} className="py-1.5 pr-4 font-semibold">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i} className="border-t border-zinc-200 align-top dark:border-zinc-800">
              {row.map((cell, j) => (
                <td key={j} className={`py-1.5 pr-4${j === 0 ? " whitespace-nowrap" : ""}`}>
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
