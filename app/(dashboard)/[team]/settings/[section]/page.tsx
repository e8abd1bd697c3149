import { notFound } from "next/navigation";
import { requireUser } from "@/lib/auth/current-user";
import { findSettingsSection } from "@/components/settings/settings-sections";

/** The tab reads the page's name: "API keys · Settings · Patchbay". */
export async function generateMetadata({ params }: { params: Promise<{ section: string }> }) {
  const section = findSettingsSection((await params).section);
  return { title: section ? `${section.label} · Settings · Patchbay` : "Page not found · Patchbay" };
}

/** One settings page. Role and plan decide what is shown; the endpoints enforce the same rules on their own. */
export default async function SettingsSectionPage({ params }: { params: Promise<{ team: string; section: string }> }) {
  const { team, section: slug } = await params;
  const section = findSettingsSection(slug);
  if (!section) notFound();
  const user = await requireUser(`/${team}/settings/${slug}`);
  const membership = user.teams.find((t) => t.id === team);
  if (!membership) notFound();
  const viewer = { team, role: membership.role, plan: membership.plan, userId: user.id, email: user.email };
  return (
    <>
      {section.cards.map((card) => (
        <section key={card.id} aria-labelledby={card.id} className="card p-4 sm:p-5">
          <h2 id={card.id} className="text-base font-semibold">
            {card.title}
          </h2>
          <p className="mb-4 mt-0.5 text-sm text-zinc-600 dark:text-zinc-400">{card.description}</p>
          {card.render(viewer)}
        </section>
      ))}
    </>
  );
}
