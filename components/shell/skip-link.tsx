/** The main content's id: the skip link's target. */
export const MAIN_ID = "main";

/**
 * The first stop of the tab order: past the header and the navigation, to the page itself. Visible
 * only when focused.
 */
export function SkipLink() {
  return (
    <a
      href={`#${MAIN_ID}`}
      className="fixed left-3 top-3 z-50 -translate-y-24 rounded-md bg-white px-3 py-2 text-sm font-medium text-indigo-700 shadow-lg ring-1 ring-zinc-200 focus:translate-y-0 focus:outline focus:outline-2 focus:outline-indigo-600 dark:bg-zinc-900 dark:text-indigo-300 dark:ring-zinc-700"
    >
      Skip to main content
    </a>
  );
}
