import { notFound } from "next/navigation";
import { requireUser } from "@/lib/auth/current-user";
import { ApiKeysSection } from "@/components/settings/api-keys-section";
import { MembersSection } from "@/components/settings/members-section";
import { McpServersSection } from "@/components/settings/mcp-servers-section";
import { AuditLogSection } from "@/components/settings/audit-log-section";
import { WebhooksSection } from "@/components/settings/webhooks-section";
import { SessionsSection } from "@/components/settings/sessions-section";
import { LowCreditsSetting } from "@/components/webhooks/low-credits-setting";
import { SelfApprovalSetting } from "@/components/settings/self-approval-setting";

function Section({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="card p-4 sm:p-5">
      <h2 id={id} className="text-base font-semibold">
        {title}
      </h2>
      <p className="mb-4 mt-0.5 text-sm text-zinc-600 dark:text-zinc-400">{description}</p>
      {children}
    </section>
  );
}

/** Role and plan decide what is shown; the endpoints enforce the same rules on their own. */
export default async function SettingsPage({ params }: { params: Promise<{ team: string }> }) {
  const { team } = await params;
  const user = await requireUser(`/${team}/settings`);
  const membership = user.teams.find((t) => t.id === team);
  if (!membership) notFound();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>
      <Section
        id="api-keys-heading"
        title="API keys"
        description="Keys authenticate integrations against the /v1 API on behalf of this team."
      >
        <ApiKeysSection team={team} role={membership.role} plan={membership.plan} />
      </Section>
      <Section id="members-heading" title="Members and roles" description="Everyone in this team and what they may do.">
        <MembersSection team={team} role={membership.role} userId={user.id} />
      </Section>
      <Section
        id="mcp-heading"
        title="MCP servers"
        description="The team's MCP servers: who owns them, which connections they may reach, and their tokens."
      >
        <McpServersSection team={team} userId={user.id} role={membership.role} />
      </Section>
      <Section
        id="approvals-heading"
        title="Approvals"
        description="Who may approve the writes agents ask to make through MCP servers whose write policy is “approval”."
      >
        <SelfApprovalSetting team={team} role={membership.role} />
      </Section>
      <Section
        id="webhooks-heading"
        title="Webhooks"
        description="Endpoints that receive the team's events (connections, auth links, credits) as signed HTTP requests, and what was delivered to each."
      >
        <WebhooksSection team={team} role={membership.role} />
      </Section>
      <Section
        id="low-credits-heading"
        title="Low-credits alert"
        description="A warning to your webhook endpoints before the team's credits run out."
      >
        <LowCreditsSetting team={team} role={membership.role} />
      </Section>
      <Section id="sessions-heading" title="Your sessions" description="Where you are signed in to Patchbay.">
        <SessionsSection team={team} email={user.email} />
      </Section>
      <Section
        id="audit-heading"
        title="Audit log"
        description="Who created, changed or removed keys, connections, members and MCP access, and when."
      >
        <AuditLogSection team={team} role={membership.role} />
      </Section>
    </div>
  );
}
