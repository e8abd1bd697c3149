import { Suspense } from "react";
import { AuthLinksView } from "@/components/auth-links/auth-links-view";

export const metadata = { title: "Auth links · Patchbay" };

export default async function AuthLinksPage({ params }: { params: Promise<{ team: string }> }) {
  const { team } = await params;
  return (
    <Suspense>
      <AuthLinksView teamId={team} />
    </Suspense>
  );
}
