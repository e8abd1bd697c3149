"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { z } from "zod";
import { DashboardQueryClient } from "@/lib/queries/query-client";

// In the browser zod would probe for eval (its JIT) with `new Function`, which the CSP refuses
// and Chromium reports as a violation. Only in the browser: the server keeps the JIT.
if (typeof window !== "undefined") z.config({ jitless: true });

/** One QueryClient per browser tab, with the dashboard's defaults. */
export function Providers({ children }: { children: React.ReactNode }) {
  const [client] = useState(
    () =>
      new DashboardQueryClient({
        defaultOptions: {
          queries: {
            staleTime: 15_000,
            refetchOnWindowFocus: false,
            retry: (count, error) => count < 2 && (error as { status?: number }).status !== 404,
          },
        },
      }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
