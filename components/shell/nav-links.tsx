"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useId, useState } from "react";
import { PendingApprovalsBadge, usePendingApprovals } from "@/components/shell/pending-approvals-badge";
import { useConnectionsNeedingReauth } from "@/lib/queries/connections";

// A team's places, grouped (STYLE 14): the groups grow with the product, not a row of tabs. Where
// something waits for a person, its count is beside it.
const GROUPS: { label: string | null; items: [slug: string, label: string][] }[] = [
  { label: null, items: [["", "Overview"]] },
  {
    label: "Connect",
    items: [
      ["clients", "Clients"],
      ["connections", "Connections"],
      ["auth-links", "Auth links"],
    ],
  },
  {
    label: "Automate",
    items: [
      ["agent", "Agent"],
      ["workflows", "Workflows"],
      ["operations", "Operations"],
      ["approvals", "Approvals"],
    ],
  },
  {
    label: "Activity",
    items: [
      ["logs", "Logs"],
      ["ledger", "Ledger"],
    ],
  },
  { label: null, items: [["settings", "Settings"]] },
];

function ReauthBadge({ count }: { count: number }) {
  if (!count) return null;
  return (
    <span
      data-testid="reauth-badge"
      className="ml-1.5 inline-flex min-w-5 items-center justify-center rounded-full bg-rose-100 px-1.5 text-xs font-semibold leading-5 text-rose-800 tabular-nums dark:bg-rose-950 dark:text-rose-200"
    >
      {count > 99 ? "99+" : count}
      <span className="sr-only"> {count === 1 ? "needs" : "need"} re-authorization</span>
    </span>
  );
}

/** The grouped list of the team's places; `onNavigate` closes the phone's menu. */
function Sections({ team, onNavigate }: { team: string; onNavigate?: () => void }) {
  const pathname = usePathname();
  const pending = usePendingApprovals(team);
  const reauth = useConnectionsNeedingReauth(team).data?.length ?? 0;
  const id = useId();
  return (
    <nav aria-label="Sections" className="space-y-4 text-sm">
      {GROUPS.map((group, g) => (
        <div key={g}>
          {group.label && (
            <p
              id={`${id}-${g}`}
              className="mb-1 px-3 text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400"
            >
              {group.label}
            </p>
          )}
          <ul aria-labelledby={group.label ? `${id}-${g}` : undefined} className="space-y-0.5">
            {group.items.map(([slug, label]) => {
              const href = slug ? `/${team}/${slug}` : `/${team}`;
              const active = slug ? pathname.startsWith(href) : pathname === href;
              return (
                <li key={slug}>
                  <Link
                    href={href}
                    onClick={onNavigate}
                    aria-current={active ? "page" : undefined}
                    className={`flex items-center rounded-md px-3 py-1.5 font-medium ${active ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900" : "text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"}`}
                  >
                    {label}
                    {slug === "approvals" && <PendingApprovalsBadge count={pending} active={active} />}
                    {slug === "connections" && <ReauthBadge count={reauth} />}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}

/** The sidebar of a wide screen. */
export function SideNav({ team }: { team: string }) {
  return (
    <aside className="hidden w-52 shrink-0 py-6 pr-4 lg:block">
      <div className="sticky top-6">
        <Sections team={team} />
      </div>
    </aside>
  );
}

/** A phone's and a narrow window's menu: a button in the header that opens the same groups. */
export function MenuNav({ team }: { team: string }) {
  const pathname = usePathname();
  // Open on the page it was opened on: a page change (a link, Back) closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (o: boolean) => setOpenOn(o ? pathname : null);
  const pending = usePendingApprovals(team);
  const panelId = useId();
  return (
    <div className="lg:hidden">
      <button
        type="button"
        className="btn-secondary px-3 py-1.5"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
      >
        Menu
        {!open && <PendingApprovalsBadge count={pending} active={false} />}
      </button>
      <div
        id={panelId}
        hidden={!open}
        className="absolute inset-x-0 top-full z-30 border-b border-zinc-200 bg-white px-4 py-4 shadow-lg dark:border-zinc-800 dark:bg-zinc-900"
      >
        {open && (
          <>
            <Sections team={team} onNavigate={() => setOpen(false)} />
            <Link
              href="/docs"
              className="mt-4 block border-t border-zinc-200 px-3 pt-3 text-sm font-medium text-zinc-700 hover:underline dark:border-zinc-800 dark:text-zinc-300"
            >
              Docs
            </Link>
          </>
        )}
      </div>
    </div>
  );
}
