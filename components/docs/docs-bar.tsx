import Link from "next/link";

/** The documentation's pages, in reading order: the index, the bar and the dashboard's Docs link read this list. */
export const DOCS_PAGES = [
  {
    href: "/docs/api",
    title: "API reference",
    about: "Every /v1 operation, its schemas, and try it with your API key.",
  },
  {
    href: "/docs/connections",
    title: "Connection types",
    about: "Every platform you can connect, how it connects, and what it can read and change.",
  },
  {
    href: "/docs/mcp",
    title: "AI clients",
    about: "Add Patchbay to Claude, ChatGPT, Cursor or VS Code by its URL: sign-in, static tokens, narrowing.",
  },
  {
    href: "/docs/operations",
    title: "Operations and approvals",
    about: "What the MCP endpoint and workflows can run, its credits, and how writes are approved.",
  },
  { href: "/docs/workflows", title: "Workflows", about: "Operations run in order, by hand or on a schedule." },
  { href: "/docs/webhooks", title: "Webhooks", about: "Signed event notifications: events, signatures, retries." },
] as const;

/**
 * The bar above every docs page: the way back to the dashboard (the signed-in team's Overview,
 * or sign-in) and the other pages.
 */
export function DocsBar({ current }: { current: (typeof DOCS_PAGES)[number]["href"] | "/docs" }) {
  return (
    <nav
      aria-label="Documentation"
      className="flex flex-wrap items-center gap-x-4 gap-y-1 border-b border-zinc-200 pb-3 text-sm dark:border-zinc-800"
    >
      <Link href="/" className="font-medium text-zinc-900 hover:underline dark:text-zinc-100">
        <span aria-hidden="true">← </span>Dashboard
      </Link>
      <Link
        href="/docs"
        aria-current={current === "/docs" ? "page" : undefined}
        className="text-zinc-600 hover:underline aria-[current=page]:font-semibold aria-[current=page]:text-zinc-900 dark:text-zinc-300 dark:aria-[current=page]:text-zinc-100"
      >
        Docs
      </Link>
      {DOCS_PAGES.map((p) => (
        <Link
          key={p.href}
          href={p.href}
          aria-current={current === p.href ? "page" : undefined}
          className="text-zinc-600 hover:underline aria-[current=page]:font-semibold aria-[current=page]:text-zinc-900 dark:text-zinc-300 dark:aria-[current=page]:text-zinc-100"
        >
          {p.title}
        </Link>
      ))}
    </nav>
  );
}
