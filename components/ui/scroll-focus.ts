/** The focus ring of a box the keyboard can scroll. */
export const SCROLL_FOCUS =
  "focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600 dark:focus-visible:ring-indigo-400";
