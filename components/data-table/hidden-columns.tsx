"use client";

import { useCallback, useEffect, useState } from "react";
import { plural } from "@/lib/text/plural";

/** Columns of a sideways-scrolling table that are out of view on each side. */
type OutOfView = { left: string[]; right: string[] };
const NONE: OutOfView = { left: [], right: [] };

/**
 * The smallest width a grid-template-columns fits in: the fixed sizes and the minimums of its
 * `minmax()` tracks (rem), plus the gaps and the row's padding. A table wider than its card
 * scrolls sideways from there, and never lets a column overflow a narrower min-width.
 */
export function templateMinWidth(template: string, { gapPx = 12, paddingPx = 24, remPx = 16 } = {}) {
  const tracks = template.match(/minmax\([^)]*\)|\S+/g) ?? [];
  const rem = (track: string) => {
    const first = track.startsWith("minmax(") ? track.slice(7).split(",")[0] : track;
    const m = /^([\d.]+)rem$/.exec(first.trim());
    return m ? Number(m[1]) * remPx : 0;
  };
  return Math.ceil(tracks.reduce((sum, t) => sum + rem(t), 0) + gapPx * Math.max(0, tracks.length - 1) + paddingPx);
}

/**
 * Which column headers of the grid in `scroller` are (mostly) outside its visible width,
 * kept up to date as it scrolls or resizes.
 */
function useOutOfViewColumns(scroller: HTMLElement | null) {
  const [out, setOut] = useState<OutOfView>(NONE);
  const measure = useCallback(() => {
    if (!scroller) return;
    if (scroller.scrollWidth <= scroller.clientWidth + 1) return setOut((o) => (o === NONE ? o : NONE));
    const box = scroller.getBoundingClientRect();
    const left: string[] = [];
    const right: string[] = [];
    for (const th of scroller.querySelectorAll<HTMLElement>('[role="columnheader"], thead th')) {
      const r = th.getBoundingClientRect();
      const name = th.textContent?.trim() || th.getAttribute("aria-label") || "";
      if (!name) continue;
      // Half of it out of view counts: its values are cut.
      if (r.left + r.width / 2 > box.right) right.push(name);
      else if (r.right - r.width / 2 < box.left) left.push(name);
    }
    setOut((o) =>
      o.left.join("\n") === left.join("\n") && o.right.join("\n") === right.join("\n") ? o : { left, right },
    );
  }, [scroller]);
  useEffect(() => {
    if (!scroller) return;
    measure();
    const resize = new ResizeObserver(measure);
    resize.observe(scroller);
    if (scroller.firstElementChild) resize.observe(scroller.firstElementChild);
    scroller.addEventListener("scroll", measure, { passive: true });
    return () => {
      resize.disconnect();
      scroller.removeEventListener("scroll", measure);
    };
  }, [scroller, measure]);
  return out;
}

/**
 * Above a table whose columns do not all fit: which ones are out of view, as a button that
 * scrolls to them (a phone sees two columns of eight; nothing else would say the rest exist).
 */
export function MoreColumns({ scroller, label }: { scroller: HTMLElement | null; label: string }) {
  const out = useOutOfViewColumns(scroller);
  const side = out.right.length ? "right" : out.left.length ? "left" : null;
  if (!side || !scroller) return null;
  const names = side === "right" ? out.right : out.left;
  const more = plural(names.length, "more column");
  return (
    <div className="mb-1.5 flex justify-end">
      <button
        type="button"
        data-testid="more-columns"
        aria-controls={scroller.id || undefined}
        title={`${label}: ${names.join(", ")}`}
        onClick={() =>
          scroller.scrollBy({ left: (side === "right" ? 1 : -1) * scroller.clientWidth * 0.8, behavior: "smooth" })
        }
        className="inline-flex max-w-full items-center gap-1 rounded-md px-2 py-1 text-xs font-medium text-indigo-700 hover:bg-indigo-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-indigo-600 dark:text-indigo-300 dark:hover:bg-indigo-950"
      >
        {side === "left" && <span aria-hidden="true">←</span>}
        <span className="truncate">
          {more}: {names.join(", ")}
        </span>
        {side === "right" && <span aria-hidden="true">→</span>}
      </button>
    </div>
  );
}
