import { HEALTH_WORDS } from "@/components/connections/health-badge";
import { TypeLogo } from "@/components/connections/type-logo";
import type { ClientConnection } from "@/lib/schemas/clients";
import type { ConnectionHealth } from "@/lib/schemas/connections";

const DOT: Record<ConnectionHealth, string> = {
  healthy: "bg-emerald-500",
  needs_reauth: "bg-rose-500",
  unreachable: "bg-amber-500",
};

const RANK: Record<ConnectionHealth, number> = { needs_reauth: 2, unreachable: 1, healthy: 0 };

type Type = { name: string; logo: string | null };

/**
 * A client's connections by platform: one logo per type, with a dot in the colour of its least
 * healthy connection of that type and the count when there are several; the words are in the
 * tooltip and the accessible name.
 */
export function ClientPlatforms({
  connections,
  typeOf,
}: {
  connections: ClientConnection[];
  typeOf: (type: string) => Type | undefined;
}) {
  if (!connections.length) return <span className="text-zinc-600 dark:text-zinc-400">None yet</span>;
  const byType = new Map<string, ClientConnection[]>();
  for (const c of connections) byType.set(c.type, [...(byType.get(c.type) ?? []), c]);
  return (
    <ul className="flex items-center gap-2" aria-label="Platforms">
      {[...byType].map(([type, list]) => {
        const worst = list.reduce((w, c) => (RANK[c.health] > RANK[w] ? c.health : w), "healthy" as ConnectionHealth);
        const name = typeOf(type)?.name ?? type;
        const label = `${name}${list.length > 1 ? ` ×${list.length}` : ""}: ${HEALTH_WORDS[worst]}`;
        return (
          <li key={type} title={label} className="relative inline-flex items-center gap-0.5" data-health={worst}>
            <TypeLogo logo={typeOf(type)?.logo} size={20} />
            <span
              aria-hidden="true"
              className={`absolute -right-0.5 -top-0.5 size-2 rounded-full ring-2 ring-white dark:ring-zinc-900 ${DOT[worst]}`}
            />
            {list.length > 1 && (
              <span className="text-xs tabular-nums text-zinc-600 dark:text-zinc-400">×{list.length}</span>
            )}
            <span className="sr-only">{label}</span>
          </li>
        );
      })}
    </ul>
  );
}
