"use client";

import { useDocumentTitle } from "@/components/ui/use-document-title";

/** Sets the tab's title from a server component where the route's metadata cannot (a 404 thrown by a layout). */
export function DocumentTitle({ title }: { title: string }) {
  useDocumentTitle(title);
  return null;
}
