"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";

/**
 * A table's filters as URL query parameters: shareable, and each change is a history entry so
 * the back button returns to the previous filter. Empty values (the defaults) are dropped.
 */
export function useUrlFilters<K extends string>(keys: readonly K[]) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const serialized = searchParams.toString();

  const filters = useMemo(() => {
    const params = new URLSearchParams(serialized);
    const out: Partial<Record<K, string>> = {};
    for (const key of keys) {
      const value = params.get(key);
      if (value) out[key] = value;
    }
    return out;
  }, [serialized, keys]);

  const setFilters = useCallback(
    (next: Partial<Record<K, string | undefined>>) => {
      // Parameters of other tables on the same page (Settings has two) stay as they are.
      const params = new URLSearchParams(serialized);
      for (const key of keys) {
        const value = next[key]?.trim();
        if (value) params.set(key, value);
        else params.delete(key);
      }
      const qs = params.toString();
      if (qs === new URLSearchParams(serialized).toString()) return;
      router.push(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
    },
    [keys, pathname, router, serialized],
  );

  const setFilter = useCallback((key: K, value: string | undefined) => setFilters({ ...filters, [key]: value }), [filters, setFilters]);

  return { filters, setFilters, setFilter };
}
