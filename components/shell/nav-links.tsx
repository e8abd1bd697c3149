"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";
import { PendingApprovalsBadge, usePendingApprovals } from "@/components/shell/pending-approvals-badge";

const SECTIONS = [
  ["", "Overview"],
  ["connections", "Connections"],
  ["auth-links", "Auth links"],
  ["workflows", "Workflows"],
  ["operations", "Operations"],
  ["approvals", "Approvals"],
  ["logs", "Logs"],
  ["ledger", "Ledger"],
  ["settings", "Settings"],
] as const;

export function NavLinks({ team }: { team: string }) {
  const pathname = usePathname();
  const pending = usePendingApprovals(team);
  const navRef = useRef<HTMLElement>(null);
  // On a phone the row scrolls sideways: the current section is brought into view, not left off screen.
  useEffect(() => {
    const nav = navRef.current;
    const current = nav?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!nav || !current || nav.scrollWidth <= nav.clientWidth) return;
    const left = current.getBoundingClientRect().left - nav.getBoundingClientRect().left;
    if (left < 0 || left + current.offsetWidth > nav.clientWidth)
      nav.scrollLeft += left - (nav.clientWidth - current.offsetWidth) / 2;
  }, [pathname]);
  return (
    <nav ref={navRef} aria-label="Sections" className="flex gap-1 overflow-x-auto">
      {SECTIONS.map(([slug, label]) => {
        const href = slug ? `/${team}/${slug}` : `/${team}`;
        const active = slug ? pathname.startsWith(href) : pathname === href;
        return (
          <Link
            key={slug}
            href={href}
            aria-current={active ? "page" : undefined}
            className={`inline-flex items-center whitespace-nowrap rounded-md px-3 py-1.5 text-sm font-medium ${active ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900" : "text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"}`}
          >
            {label}
            {slug === "approvals" && <PendingApprovalsBadge count={pending} active={active} />}
          </Link>
        );
      })}
    </nav>
  );
}
