import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { requireUser } from "@/lib/auth/current-user";
import { logChargeHref, runChargeHref } from "@/lib/credits/charge-of-href";

export const dynamic = "force-dynamic";
export const metadata = { title: "Charge · Patchbay" };

/**
 * "Its charge" of a log (?log=…) or a workflow run (?run=…): the Ledger page filtered to the entry
 * that paid for it (lib/credits/charge-of-href.ts), or why there is none.
 */
export default async function ChargeOf({
  params,
  searchParams,
}: {
  params: Promise<{ team: string }>;
  searchParams: Promise<{ log?: string | string[]; run?: string | string[] }>;
}) {
  const { team } = await params;
  const { log, run } = await searchParams;
  const query = typeof log === "string" ? `log=${encodeURIComponent(log)}` : `run=${encodeURIComponent(String(run))}`;
  const user = await requireUser(`/${encodeURIComponent(team)}/ledger/charge?${query}`);
  if (!user.teams.some((t) => t.id === team)) notFound();
  const id = typeof log === "string" ? log : typeof run === "string" ? run : null;
  if (!id || id.length > 255) notFound();
  const href = typeof log === "string" ? await logChargeHref(team, id) : await runChargeHref(team, id);
  if (href) redirect(href);
  return (
    <div className="space-y-3">
      <h1 className="text-2xl font-semibold tracking-tight">No charge yet</h1>
      <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="no-charge">
        No ledger entry charged for this {typeof log === "string" ? "log" : "run"}: a run is charged when it ends, and a
        call that was refused or cost nothing has no entry.
      </p>
      <div className="flex flex-wrap gap-2">
        <Link href={`/${team}/ledger`} className="btn-secondary">
          The ledger
        </Link>
        <Link
          href={`/${team}/logs?${typeof log === "string" ? `log=${encodeURIComponent(id)}` : `source_run_id=${encodeURIComponent(id)}`}`}
          className="btn-secondary"
        >
          Back to its {typeof log === "string" ? "log" : "logs"}
        </Link>
      </div>
    </div>
  );
}
