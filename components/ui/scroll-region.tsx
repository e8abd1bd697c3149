"use client";

import { useCallback, useState } from "react";
import { MoreColumns } from "@/components/data-table/hidden-columns";
import { SCROLL_FOCUS } from "@/components/ui/scroll-focus";

/**
 * A box that scrolls sideways when its content is wider than the screen (a table, a chart, a
 * payload at 390 px): in the tab order and named, so a keyboard can reach it and scroll it with
 * the arrow keys, and a screen reader says what it holds.
 */
export function ScrollRegion({
  label,
  className = "",
  testId,
  ref,
  children,
}: {
  label: string;
  className?: string;
  testId?: string;
  ref?: React.Ref<HTMLDivElement>;
  children: React.ReactNode;
}) {
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  const refs = useCallback(
    (el: HTMLDivElement | null) => {
      setBox(el);
      if (typeof ref === "function") ref(el);
      else if (ref) ref.current = el;
    },
    [ref],
  );
  // A table's columns out of view are named above it (nothing shows for a chart or a payload).
  return (
    <div className="min-w-0">
      <MoreColumns scroller={box} label={`${label}, out of view`} />
      <div
        ref={refs}
        role="region"
        aria-label={label}
        tabIndex={0}
        data-testid={testId}
        className={`relative overflow-x-auto ${SCROLL_FOCUS} ${className}`}
      >
        {children}
      </div>
    </div>
  );
}
