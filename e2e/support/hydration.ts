import type { Page } from "@playwright/test";

/**
 * A click that lands before React has hydrated the page is lost: nothing listens yet (CI's
 * loaded runs met it, e.g. a dialog that never opened). So every navigation of `page` that
 * loads a document (goto, reload, back, forward) waits until a Next page marks itself hydrated
 * (components/hydration-mark.tsx). A page that is not Next's (a stand-in's form, JSON) has
 * nothing to wait for; a page that never hydrates is left to the test's own assertions.
 */
export function waitForHydrationOnLoad(page: Page) {
  const marked = page as Page & { __waitsForHydration?: boolean };
  if (marked.__waitsForHydration) return;
  marked.__waitsForHydration = true;
  for (const name of ["goto", "reload", "goBack", "goForward"] as const) {
    const navigate = page[name].bind(page) as (...args: unknown[]) => ReturnType<Page["reload"]>;
    (page as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      const response = await navigate(...args);
      await hydrated(page);
      return response;
    };
  }
}

async function hydrated(page: Page) {
  await page
    .waitForFunction(
      () => !document.querySelector('script[src*="/_next/"]') || document.documentElement.hasAttribute("data-hydrated"),
      undefined,
      { timeout: 15_000 },
    )
    // Navigated on (a redirect by the page itself) or closed: the test goes on. Never hydrated:
    // said here, and the test's own assertions tell what did not work.
    .catch((e: Error) => {
      if (/Timeout/.test(e.message)) console.warn(`[hydration] ${page.url()} did not hydrate within 15 s`);
    });
}
