"use client";

import { usePathname, useRouter } from "next/navigation";

/** Switches team while keeping the section: /{team}/logs → /{other}/logs. */
export function TeamSwitcher({ current, teams }: { current: string; teams: { id: string; name: string }[] }) {
  const router = useRouter();
  const pathname = usePathname();
  if (teams.length < 2)
    return <span className="truncate text-sm font-medium">{teams.find((t) => t.id === current)?.name}</span>;
  return (
    <label className="flex items-center gap-2 text-sm">
      <select
        aria-label="Switch team"
        value={current}
        onChange={(e) => router.push(pathname.replace(`/${current}`, `/${e.target.value}`))}
        className="max-w-[12rem] truncate rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm font-medium dark:border-zinc-700 dark:bg-zinc-900"
      >
        {teams.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </select>
    </label>
  );
}
