"use client";

import { useCallback, useState } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";

/**
 * The row whose detail panel is open lives in the URL (?run=…, ?approval=…): a row opens it (a
 * history entry, so Back closes it), and a link opens it on a fresh page load. Closing gives the
 * focus back to its row, or to the page when the row is not in the list.
 */
export function useDetailParam(param: string, rows: { id: string }[]) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const openId = searchParams.get(param);
  const [returnFocus, setReturnFocus] = useState<{ id: string } | null>(null);
  const withParam = useCallback(
    (id: string | null) => {
      const params = new URLSearchParams(searchParams.toString());
      if (id) params.set(param, id);
      else params.delete(param);
      const qs = params.toString();
      return qs ? `${pathname}?${qs}` : pathname;
    },
    [param, pathname, searchParams],
  );
  const open = useCallback(
    (row: { id: string }) => router.push(withParam(row.id), { scroll: false }),
    [router, withParam],
  );
  const close = useCallback(() => {
    if (openId && rows.some((r) => r.id === openId)) setReturnFocus({ id: openId });
    else document.getElementById("main")?.focus();
    router.replace(withParam(null), { scroll: false });
  }, [openId, rows, router, withParam]);
  return { openId, open, close, returnFocus };
}
