import { Suspense } from "react";
import { LedgerExplorer } from "@/components/ledger/ledger-explorer";

export const metadata = { title: "Ledger · Patchbay" };

export default async function LedgerPage({ params }: { params: Promise<{ team: string }> }) {
  const { team } = await params;
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Credit ledger</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">One line per charge with the balance right after it.</p>
      </div>
      <Suspense>
        <LedgerExplorer teamId={team} />
      </Suspense>
    </div>
  );
}
