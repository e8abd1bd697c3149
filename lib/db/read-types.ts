import type { ColumnType, Generated } from "kysely";
import type {
  AgentConversation,
  AgentTurn,
  ApiKey,
  Approval,
  AuditEvent,
  AuthLink,
  Connection,
  CreditLedgerEntry,
  McpServer,
  Membership,
  OAuthGrant,
  OAuthToken,
  OperationLog,
  Team,
  UsageAttribution,
  User,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEvent,
  Workflow,
  WorkflowRun,
} from "@/lib/db/generated/sqlite/client";

/**
 * A stored instant as the read drivers return it on both engines: milliseconds since the epoch
 * (lib/db/client.ts decodes it).
 */
export type Instant = number;

/** A Boolean column: true/false on PostgreSQL, 1/0 on SQLite. */
type Flag = boolean | number;

/**
 * A column of Prisma's model type as the drivers return it (distributes over `| null`); an instant
 * is written as a Date (lib/db/write.ts), which the writes encode as Prisma stores it.
 */
type Column<T> = T extends bigint
  ? number
  : T extends Date
    ? ColumnType<Instant, Date, Date>
    : T extends boolean
      ? Flag
      : T;
type Row<Model> = { [K in keyof Model]: Column<Model[K]> };
/** A table whose id the database assigns (autoincrement): inserts leave it out. */
type AutoId<Model> = Omit<Row<Model>, "id"> & { id: Generated<number> };

/** The tables the hot reads and writes use, typed from the Prisma models generated from prisma/schema.prisma. */
export type ReadDb = {
  AgentConversation: Row<AgentConversation>;
  AgentTurn: Row<AgentTurn>;
  ApiKey: Row<ApiKey>;
  Approval: Row<Approval>;
  AuditEvent: Row<AuditEvent>;
  AuthLink: Row<AuthLink>;
  Connection: Row<Connection>;
  CreditLedgerEntry: AutoId<CreditLedgerEntry>;
  McpServer: Row<McpServer>;
  Membership: Row<Membership>;
  OAuthGrant: Row<OAuthGrant>;
  OAuthToken: Row<OAuthToken>;
  OperationLog: Row<OperationLog>;
  Team: Row<Team>;
  UsageAttribution: AutoId<UsageAttribution>;
  User: Row<User>;
  WebhookDelivery: Row<WebhookDelivery>;
  WebhookEndpoint: Row<WebhookEndpoint>;
  WebhookEvent: Row<WebhookEvent>;
  Workflow: Row<Workflow>;
  WorkflowRun: Row<WorkflowRun>;
};
