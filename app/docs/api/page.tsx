import type { Metadata } from "next";
import { appUrl } from "@/lib/config/env";
import { buildOpenApiDocument } from "@/lib/openapi/build-document";
import { ApiReference } from "@/components/api-reference/api-reference";
import { OperationOutline } from "@/components/api-reference/operation-outline";
import Link from "next/link";

export const metadata: Metadata = { title: "API reference · Patchbay" };
export const dynamic = "force-dynamic";

const link = "text-indigo-600 hover:underline dark:text-indigo-400";

// The reference itself is Scalar, in the browser, reading the live /v1/openapi.json; the header
// (its height is --scalar-custom-header-height in components/api-reference) stays above it.
export default function ApiReferencePage() {
  const { info, paths, components } = buildOpenApiDocument(appUrl());
  return (
    <>
      {/* Left-aligned: the right edge is where Scalar's try-it dialog puts its close button. */}
      {/* On a phone the links take a second row (the header is then 4rem, the same variable tells Scalar). */}
      <header className="sticky top-0 z-20 flex h-16 flex-wrap content-center items-center gap-x-3 gap-y-1 border-b border-zinc-200 bg-white px-4 text-sm sm:h-14 sm:flex-nowrap sm:px-6 dark:border-zinc-800 dark:bg-zinc-950">
        <Link href="/" className="shrink-0 font-medium hover:underline">
          <span aria-hidden="true">← </span>Dashboard
        </Link>
        {/* Not a heading: Scalar's introduction below is the page's h1. */}
        <span className="text-base font-semibold tracking-tight">{info.title}</span>
        <span className="rounded-full bg-zinc-100 px-2 py-0.5 font-mono text-xs text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300">
          v{info.version}
        </span>
        <span className="hidden truncate text-zinc-500 dark:text-zinc-400 md:inline">
          base URL <code className="font-mono">{appUrl()}</code>
        </span>
        <nav
          aria-label="API documents"
          className="flex shrink-0 basis-full gap-3 sm:basis-auto sm:border-l sm:border-zinc-200 sm:pl-3 sm:dark:border-zinc-800"
        >
          <a className={link} href="/v1/openapi.json">
            openapi.json
          </a>
          {/* The events themselves are in the reference (its Webhooks group); the guide is how to receive them. */}
          <Link className={link} href="/docs/webhooks">
            Webhooks<span className="hidden sm:inline"> guide</span>
          </Link>
          <Link className={link} href="/docs/operations">
            Operations
          </Link>
          <Link className={link} href="/docs">
            All docs
          </Link>
        </nav>
      </header>
      <ApiReference />
      <noscript>
        <OperationOutline doc={{ paths, components }} />
      </noscript>
    </>
  );
}
