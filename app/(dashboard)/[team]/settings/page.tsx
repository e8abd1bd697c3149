import { notFound, redirect } from "next/navigation";
import { requireUser } from "@/lib/auth/current-user";
import { SETTINGS_SECTIONS } from "@/components/settings/settings-sections";

/**
 * /settings opens its first page. `?webhook=<id>` (the disabled-webhook banner's older links)
 * opens that endpoint's deliveries on the Webhooks page.
 */
export default async function SettingsIndex({
  params,
  searchParams,
}: {
  params: Promise<{ team: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { team } = await params;
  const user = await requireUser(`/${team}/settings`);
  if (!user.teams.some((t) => t.id === team)) notFound();
  const { webhook } = await searchParams;
  if (typeof webhook === "string") redirect(`/${team}/settings/webhooks?webhook=${encodeURIComponent(webhook)}`);
  redirect(`/${team}/settings/${SETTINGS_SECTIONS[0].slug}`);
}
