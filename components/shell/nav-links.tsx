"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export const SECTIONS = [
  ["", "Overview"],
  ["connections", "Connections"],
  ["auth-links", "Auth links"],
  ["logs", "Logs"],
  ["ledger", "Ledger"],
  ["settings", "Settings"],
] as const;

export function NavLinks({ team }: { team: string }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Sections" className="flex gap-1 overflow-x-auto">
      {SECTIONS.map(([slug, label]) => {
        const href = slug ? `/${team}/${slug}` : `/${team}`;
        const active = slug ? pathname.startsWith(href) : pathname === href;
        return (
          <Link
            key={slug}
            href={href}
            aria-current={active ? "page" : undefined}
            className={`whitespace-nowrap rounded-md px-3 py-1.5 text-sm font-medium ${active ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900" : "text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"}`}
          >
            {label}
          </Link>
        );
      })}
    </nav>
  );
}
