"use client";

import { useEffect } from "react";

/**
 * The browser tab names what the page shows once it has loaded ("Weekly report · Workflows ·
 * Patchbay"), where the route's static title can only say which kind of page it is.
 */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
