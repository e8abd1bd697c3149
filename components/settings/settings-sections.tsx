import { ApiKeysSection } from "@/components/settings/api-keys-section";
import { MembersSection } from "@/components/settings/members-section";
import { McpServersSection } from "@/components/settings/mcp-servers-section";
import { AuditLogSection } from "@/components/settings/audit-log-section";
import { WebhooksSection } from "@/components/settings/webhooks-section";
import { SessionsSection } from "@/components/settings/sessions-section";
import { ConnectedAppsSection } from "@/components/settings/connected-apps";
import { LowCreditsSetting } from "@/components/webhooks/low-credits-setting";
import { SelfApprovalSetting } from "@/components/settings/self-approval-setting";
import { DataRetentionSection } from "@/components/settings/data-retention-section";
import { WEBHOOK_EVENT_FAMILIES } from "@/lib/schemas/webhook-event-types";

// Settings' sub-pages (STYLE 14), one entry each: its URL (/<team>/settings/<slug>), its name in
// the settings navigation, and its cards. The navigation, the pages and /settings' redirect read
// this list; a new settings page is one entry.

type SettingsViewer = { team: string; role: "owner" | "member"; plan: string; userId: string; email: string };

type Card = { id: string; title: string; description: string; render: (v: SettingsViewer) => React.ReactNode };

type SettingsSection = { slug: string; label: string; cards: Card[] };

export const SETTINGS_SECTIONS: SettingsSection[] = [
  {
    slug: "members",
    label: "Members",
    cards: [
      {
        id: "members-heading",
        title: "Members and roles",
        description: "Everyone in this team and what they may do.",
        render: (v) => <MembersSection team={v.team} role={v.role} userId={v.userId} />,
      },
    ],
  },
  {
    slug: "api-keys",
    label: "API keys",
    cards: [
      {
        id: "api-keys-heading",
        title: "API keys",
        description: "Keys authenticate integrations against the /v1 API on behalf of this team.",
        render: (v) => <ApiKeysSection team={v.team} role={v.role} plan={v.plan} />,
      },
    ],
  },
  {
    slug: "mcp-servers",
    label: "MCP servers",
    cards: [
      {
        id: "mcp-heading",
        title: "MCP servers",
        description:
          "The team's MCP servers: who owns them, which connections they may reach, their tokens and connected apps.",
        render: (v) => <McpServersSection team={v.team} userId={v.userId} role={v.role} />,
      },
      {
        id: "approvals-heading",
        title: "Approvals",
        description:
          "Who may approve the writes agents ask for: the Agent's, and those of apps on MCP servers whose write policy is “approval”.",
        render: (v) => <SelfApprovalSetting team={v.team} role={v.role} />,
      },
    ],
  },
  {
    slug: "webhooks",
    label: "Webhooks",
    cards: [
      {
        id: "webhooks-heading",
        title: "Webhooks",
        description: `Endpoints that receive the team's events (${WEBHOOK_EVENT_FAMILIES.join(", ")}) as signed HTTP requests, and what was delivered to each.`,
        render: (v) => <WebhooksSection team={v.team} role={v.role} />,
      },
      {
        id: "low-credits-heading",
        title: "Low-credits alert",
        description: "A warning to your webhook endpoints before the team's credits run out.",
        render: (v) => <LowCreditsSetting team={v.team} role={v.role} />,
      },
    ],
  },
  {
    slug: "sessions",
    label: "Your sessions",
    cards: [
      {
        id: "sessions-heading",
        title: "Your sessions",
        description: "Where you are signed in to Patchbay.",
        render: (v) => <SessionsSection team={v.team} email={v.email} />,
      },
      {
        id: "connected-apps-heading",
        title: "Your connected apps",
        description:
          "AI clients you allowed to act as you through this team's MCP servers; revoke one to end its access.",
        render: (v) => <ConnectedAppsSection team={v.team} />,
      },
    ],
  },
  {
    slug: "audit-log",
    label: "Audit log",
    cards: [
      {
        id: "audit-heading",
        title: "Audit log",
        description: "Who created, changed or removed keys, connections, members and MCP access, and when.",
        render: (v) => <AuditLogSection team={v.team} role={v.role} />,
      },
    ],
  },
  {
    slug: "data-retention",
    label: "Data retention",
    cards: [
      {
        id: "data-retention-heading",
        title: "Data retention",
        description: "What this deployment keeps of the team's history, and for how long.",
        render: (v) => <DataRetentionSection team={v.team} />,
      },
    ],
  },
];

export const findSettingsSection = (slug: string) => SETTINGS_SECTIONS.find((s) => s.slug === slug);
