"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef } from "react";

function put(params: URLSearchParams, key: string, value: string | undefined) {
  const v = value?.trim();
  if (v) params.set(key, v);
  else params.delete(key);
}

/**
 * A table's filters as URL query parameters: shareable, and each change is a history entry so
 * the back button returns to the previous filter. Empty values (the defaults) are dropped.
 *
 * A change applies to the newest query: the one this page last pushed, until the URL has caught up
 * with it. Two changes in a row (a search that commits after its pause, a kind chosen meanwhile)
 * both hold, even when the router has not yet shown the first in the URL. And each stays its own
 * history entry: the router discards a navigation still loading when the next one starts (the
 * first entry was lost under load, found by CI), so a change made meanwhile is pushed once the
 * one before it has arrived.
 */
export function useUrlFilters<K extends string>(keys: readonly K[]) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const serialized = searchParams.toString();
  // The URL's query as last rendered, and the queries pushed since that it has not shown yet.
  const url = useRef({ shown: serialized, pending: [] as string[] });
  const navigate = useCallback(
    (qs: string) => router.push(qs ? `${pathname}?${qs}` : pathname, { scroll: false }),
    [pathname, router],
  );
  useEffect(() => {
    if (serialized === url.current.shown) return; // nothing arrived: the effect ran for `navigate`
    const i = url.current.pending.indexOf(serialized);
    // One of ours arrived: those before it are behind us, and the next one waiting goes now.
    // Anything else (back, a link) starts afresh.
    url.current = { shown: serialized, pending: i >= 0 ? url.current.pending.slice(i + 1) : [] };
    if (i >= 0 && url.current.pending.length) navigate(url.current.pending[0]);
  }, [serialized, navigate]);

  const filters = useMemo(() => {
    const params = new URLSearchParams(serialized);
    const out: Partial<Record<K, string>> = {};
    for (const key of keys) {
      const value = params.get(key);
      if (value) out[key] = value;
    }
    return out;
  }, [serialized, keys]);

  const update = useCallback(
    (change: (params: URLSearchParams) => void) => {
      const base = url.current.pending.at(-1) ?? url.current.shown;
      const params = new URLSearchParams(base);
      change(params);
      const qs = params.toString();
      if (qs === base) return;
      url.current.pending.push(qs);
      // One in flight at a time: the effect above pushes this one when the one before it arrives.
      if (url.current.pending.length === 1) navigate(qs);
    },
    [navigate],
  );

  /** Sets every filter of this table at once (those not given are cleared); other tables' stay. */
  const setFilters = useCallback(
    (next: Partial<Record<K, string | undefined>>) => update((params) => keys.forEach((k) => put(params, k, next[k]))),
    [keys, update],
  );

  /** Sets one filter, the others as they are now. */
  const setFilter = useCallback(
    (key: K, value: string | undefined) => update((params) => put(params, key, value)),
    [update],
  );

  return { filters, setFilters, setFilter };
}
