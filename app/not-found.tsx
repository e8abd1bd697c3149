import type { Metadata } from "next";
import Link from "next/link";
import { DocumentTitle } from "@/components/ui/document-title";

const TITLE = "Page not found · Patchbay";

export const metadata: Metadata = { title: TITLE, robots: { index: false } };

/**
 * Any address that leads nowhere: a mistyped URL, another team's page, a deleted workflow's
 * link. It says so and leads back (the dashboard picks the visitor's team, or sign-in).
 */
export default function NotFound() {
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col justify-center px-6 py-16">
      {/* A 404 thrown by a layout (another team's address) keeps the page's own metadata: this corrects the tab. */}
      <DocumentTitle title={TITLE} />
      <Link href="/" className="mb-8 flex items-center gap-2 font-semibold tracking-tight">
        {/* eslint-disable-next-line @next/next/no-img-element -- a 1 KB SVG: nothing to optimise */}
        <img src="/favicon.svg" alt="" width={28} height={28} />
        Patchbay
      </Link>
      <p className="text-sm font-semibold text-indigo-700 dark:text-indigo-300">404</p>
      <h1 className="mt-1 text-3xl font-semibold tracking-tight">Page not found</h1>
      <p className="mt-3 text-zinc-600 dark:text-zinc-400">
        Nothing is at this address. The link may be mistyped, or what it pointed to was deleted or belongs to a team you
        are not in.
      </p>
      <div className="mt-6 flex flex-wrap gap-3">
        <Link href="/" className="btn-primary">
          Go to your dashboard
        </Link>
        <Link href="/docs" className="btn-secondary">
          Read the docs
        </Link>
      </div>
    </main>
  );
}
