import type {
  AgentConversation,
  AgentTurn,
  ApiKey,
  AuthLink,
  Connection,
  CreditLedgerEntry,
  McpServer,
  Membership,
  OAuthGrant,
  OAuthToken,
  OperationLog,
  Team,
  User,
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

/** A column of Prisma's model type as the drivers return it (distributes over `| null`). */
type Column<T> = T extends bigint ? number : T extends Date ? Instant : T extends boolean ? Flag : T;
type Row<Model> = { [K in keyof Model]: Column<Model[K]> };

/** The tables the hot reads use, typed from the Prisma models generated from prisma/schema.prisma. */
export type ReadDb = {
  AgentConversation: Row<AgentConversation>;
  AgentTurn: Row<AgentTurn>;
  ApiKey: Row<ApiKey>;
  AuthLink: Row<AuthLink>;
  Connection: Row<Connection>;
  CreditLedgerEntry: Row<CreditLedgerEntry>;
  McpServer: Row<McpServer>;
  Membership: Row<Membership>;
  OAuthGrant: Row<OAuthGrant>;
  OAuthToken: Row<OAuthToken>;
  OperationLog: Row<OperationLog>;
  Team: Row<Team>;
  User: Row<User>;
  Workflow: Row<Workflow>;
  WorkflowRun: Row<WorkflowRun>;
};
