"use client";

import { useCallback, useState } from "react";

/**
 * Which row's detail panel is open, and the row the keyboard focus goes back to when it closes
 * (DataTable's `focusRowId`): a table's rows open a panel, Escape or ✕ closes it, and the
 * person continues from the row they were on.
 */
export function useRowDetail() {
  const [openId, setOpenId] = useState<string | null>(null);
  const [returnFocus, setReturnFocus] = useState<{ id: string } | null>(null);
  const open = useCallback((row: { id: string }) => setOpenId(row.id), []);
  const close = useCallback(() => {
    if (openId) setReturnFocus({ id: openId });
    setOpenId(null);
  }, [openId]);
  return { openId, setOpenId, open, close, returnFocus };
}
