"use client";

import { useLayoutEffect } from "react";

// 15rem: five rows at least, rather than a sliver, where the page above the table is tall.
const MIN_HEIGHT_PX = 240;
// The page's padding under the table (main's py-6).
const GAP_BELOW_PX = 24;

/**
 * Caps a scroll container's height at what the window has left below the container's top, so
 * its last row stays on screen whatever sits above it: a page's search and filters that wrap on
 * a narrower screen, a notice that appears. A fixed `calc(100dvh - Nrem)` guessed that height and
 * went stale when the logs page gained its search box (the grid's end fell under the fold).
 * Measured again when the page's height changes or the window is resized.
 */
export function useFillWindow(element: HTMLElement | null, enabled: boolean) {
  useLayoutEffect(() => {
    if (!element || !enabled) return;
    const fit = () => {
      const top = Math.round(element.getBoundingClientRect().top + window.scrollY);
      element.style.maxHeight = `max(${MIN_HEIGHT_PX}px, calc(100dvh - ${top + GAP_BELOW_PX}px))`;
    };
    fit();
    // The body's size changes when anything above the table grows or shrinks; the table's own
    // growth triggers it too, which measures the same top and changes nothing.
    const observer = new ResizeObserver(fit);
    observer.observe(document.body);
    window.addEventListener("resize", fit);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", fit);
      element.style.maxHeight = "";
    };
  }, [element, enabled]);
}
