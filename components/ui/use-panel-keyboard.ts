"use client";

import { useEffect, type RefObject } from "react";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/**
 * Keeps Tab and Shift+Tab inside `container`: past its last focusable element the focus goes to
 * the first, and back. True when it moved the focus (the event is then handled).
 */
export function trapTab(
  e: { key: string; shiftKey: boolean; preventDefault(): void },
  container: HTMLElement,
): boolean {
  if (e.key !== "Tab") return false;
  const items = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el.offsetParent !== null || el === document.activeElement,
  );
  if (!items.length) return false;
  const first = items[0];
  const last = items[items.length - 1];
  const inside = container.contains(document.activeElement);
  if (e.shiftKey && (document.activeElement === first || !inside)) {
    e.preventDefault();
    last.focus();
    return true;
  }
  if (!e.shiftKey && (document.activeElement === last || !inside)) {
    e.preventDefault();
    first.focus();
    return true;
  }
  return false;
}

/**
 * A side panel (role="dialog") as a keyboard user expects it: the focus moves into it (to
 * `initial`) when it opens or shows another item, Tab and Shift+Tab stay inside it, and Escape
 * closes it (the opener then gives the focus back, see useRowDetail).
 */
export function usePanelKeyboard(
  panel: RefObject<HTMLElement | null>,
  initial: RefObject<HTMLElement | null>,
  onClose: () => void,
  key: unknown,
) {
  useEffect(() => {
    initial.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      // A modal <dialog> opened from the panel (a confirmation) handles its own Escape and Tab.
      if (e.target instanceof Element && e.target.closest("dialog[open]")) return;
      if (e.key === "Escape") {
        e.preventDefault();
        onClose();
        return;
      }
      if (panel.current) trapTab(e, panel.current);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
    // `key`: the item shown; only a new one takes the focus again, not a re-render.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see the line above
  }, [key, onClose]);
}
