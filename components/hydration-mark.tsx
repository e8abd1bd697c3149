"use client";

import { useEffect } from "react";

/**
 * Marks `<html data-hydrated>` once React has hydrated the page: from then on its buttons
 * answer clicks. The browser tests wait for it after every page load (e2e/support/hydration.ts);
 * a click that lands before hydration is lost, which CI's loaded runs met.
 */
export function HydrationMark() {
  useEffect(() => {
    document.documentElement.setAttribute("data-hydrated", "");
  }, []);
  return null;
}
