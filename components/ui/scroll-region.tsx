/** The focus ring of a box the keyboard can scroll. */
export const SCROLL_FOCUS =
  "focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600 dark:focus-visible:ring-indigo-400";

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
  return (
    <div
      ref={ref}
      role="region"
      aria-label={label}
      tabIndex={0}
      data-testid={testId}
      className={`relative overflow-x-auto ${SCROLL_FOCUS} ${className}`}
    >
      {children}
    </div>
  );
}
