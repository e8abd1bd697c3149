import type { Metadata } from "next";
import { ConnectMessage } from "@/components/connect/connect-shell";

export const metadata: Metadata = { title: "Connection failed · Patchbay", robots: { index: false } };

/** Where a sign-in response that matches no auth link ends up (forged, mangled or stale state). */
export default async function ConnectErrorPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { error_description } = await searchParams;
  // Each description the callback gives ends with what to do next; without one, this page says it.
  return (
    <ConnectMessage tone="error" title="The connection didn't complete">
      {typeof error_description === "string" ? (
        <p>{error_description}</p>
      ) : (
        <>
          <p>The sign-in response could not be matched to a link.</p>
          <p>Open the link you were sent again to retry.</p>
        </>
      )}
    </ConnectMessage>
  );
}
