import type { Metadata } from "next";
import Link from "next/link";
import { DOCS_PAGES, DocsBar } from "@/components/docs/docs-bar";

export const metadata: Metadata = { title: "Docs · Patchbay" };

export default function DocsIndexPage() {
  return (
    <main className="mx-auto max-w-4xl px-4 py-6 sm:px-6">
      <DocsBar current="/docs" />
      <h1 className="mt-8 text-3xl font-semibold tracking-tight">Patchbay docs</h1>
      <ul className="mt-6 grid gap-3 sm:grid-cols-2">
        {DOCS_PAGES.map((p) => (
          <li key={p.href}>
            <Link
              href={p.href}
              className="block h-full rounded-lg border border-zinc-200 bg-white p-4 hover:border-indigo-400 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none dark:border-zinc-800 dark:bg-zinc-900"
            >
              <span className="font-semibold">{p.title}</span>
              <span className="mt-1 block text-sm text-zinc-600 dark:text-zinc-400">{p.about}</span>
            </Link>
          </li>
        ))}
      </ul>
    </main>
  );
}
