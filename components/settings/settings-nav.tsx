"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";

/** The settings pages, as links (the current one marked); wraps on a phone rather than scrolling. */
export function SettingsNav({ team, sections }: { team: string; sections: { slug: string; label: string }[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Settings pages">
      <ul className="flex flex-wrap gap-1 text-sm">
        {sections.map(({ slug, label }) => {
          const href = `/${team}/settings/${slug}`;
          const active = pathname === href;
          return (
            <li key={slug}>
              <Link
                href={href}
                aria-current={active ? "page" : undefined}
                className={`inline-block rounded-md px-3 py-1.5 font-medium ${active ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900" : "text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"}`}
              >
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
