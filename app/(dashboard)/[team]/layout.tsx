import Link from "next/link";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/auth/current-user";
import { Providers } from "@/components/providers";
import { MenuNav, SideNav } from "@/components/shell/nav-links";
import { SignOutButton } from "@/components/shell/sign-out-button";
import { TeamSwitcher } from "@/components/shell/team-switcher";
import { DisabledWebhooksBanner } from "@/components/shell/disabled-webhooks-banner";
import { MAIN_ID, SkipLink } from "@/components/shell/skip-link";

export const dynamic = "force-dynamic";

/** The signed-in shell of one team: header with the team switcher, the sections, sign-out. */
export default async function TeamLayout({
  children,
  params,
}: {
  children: React.ReactNode;
  params: Promise<{ team: string }>;
}) {
  const { team } = await params;
  const user = await requireUser(`/${team}`);
  const membership = user.teams.find((t) => t.id === team);
  if (!membership) notFound();
  return (
    <Providers>
      <div className="min-h-screen bg-zinc-50 dark:bg-zinc-950">
        <SkipLink />
        <header className="relative border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
          <div className="mx-auto flex max-w-[96rem] items-center justify-between gap-3 px-4 py-3">
            <div className="flex min-w-0 items-center gap-3">
              <Link href={`/${team}`} className="flex items-center gap-2 font-semibold tracking-tight">
                {/* eslint-disable-next-line @next/next/no-img-element -- a 1 KB SVG: nothing to optimise */}
                <img src="/favicon.svg" alt="" width={24} height={24} />
                {/* On a phone only the logo shows; the name stays for screen readers (the link's name). */}
                <span className="sr-only sm:not-sr-only">Patchbay</span>
              </Link>
              <span aria-hidden="true" className="text-zinc-300 dark:text-zinc-700">
                /
              </span>
              <TeamSwitcher current={team} teams={user.teams.map((t) => ({ id: t.id, name: t.name }))} />
            </div>
            <div className="flex items-center gap-3 sm:gap-4">
              <MenuNav team={team} />
              {/* On a phone, Docs is in the menu: the header keeps room for the team's name. */}
              <Link
                href="/docs"
                className="hidden text-sm font-medium lg:inline text-zinc-600 hover:text-zinc-900 hover:underline dark:text-zinc-300 dark:hover:text-zinc-100"
              >
                Docs
              </Link>
              <span className="hidden truncate text-sm text-zinc-500 md:inline dark:text-zinc-400">{user.email}</span>
              <SignOutButton />
            </div>
          </div>
        </header>
        {/* Webhooks are owners' business (the endpoints list answers 403 to members). */}
        {membership.role === "owner" && <DisabledWebhooksBanner team={team} />}
        <div className="mx-auto flex max-w-[96rem] px-4">
          <SideNav team={team} />
          <main id={MAIN_ID} tabIndex={-1} className="min-w-0 flex-1 py-6 focus:outline-none lg:pl-6">
            {children}
          </main>
        </div>
      </div>
    </Providers>
  );
}
