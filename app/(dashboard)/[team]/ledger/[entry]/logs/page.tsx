import { notFound, redirect } from "next/navigation";
import { requireUser } from "@/lib/auth/current-user";
import { chargeLogsHref } from "@/lib/credits/charge-logs-href";

export const dynamic = "force-dynamic";

/**
 * "Logs of this charge" on the ledger: the Logs page showing exactly what that entry paid for
 * (lib/credits/charge-logs-href.ts). Checked here, not only in the layout, which renders beside it.
 */
export default async function ChargeLogs({ params }: { params: Promise<{ team: string; entry: string }> }) {
  const { team, entry } = await params;
  const user = await requireUser(`/${encodeURIComponent(team)}/ledger/${encodeURIComponent(entry)}/logs`);
  if (!user.teams.some((t) => t.id === team) || !/^\d{1,15}$/.test(entry)) notFound();
  const href = await chargeLogsHref(team, user.id, Number(entry));
  if (!href) notFound();
  redirect(href);
}
