import { SettingsNav } from "@/components/settings/settings-nav";
import { SETTINGS_SECTIONS } from "@/components/settings/settings-sections";

export default async function SettingsLayout({
  params,
  children,
}: {
  params: Promise<{ team: string }>;
  children: React.ReactNode;
}) {
  const { team } = await params;
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>
      <SettingsNav team={team} sections={SETTINGS_SECTIONS.map(({ slug, label }) => ({ slug, label }))} />
      {children}
    </div>
  );
}
