import type {
  ApiKey,
  AuthLink,
  Connection,
  CreditLedgerEntry,
  McpServer,
  Membership,
  OperationLog,
  Team,
  User,
  Workflow,
} from "@/lib/db/generated/sqlite/client";

/**
 * A stored instant as the read drivers return it: milliseconds on PostgreSQL (lib/db/client.ts
 * decodes it), Prisma's ISO-8601 text on SQLite. Read it with `instantMs`.
 */
export type Instant = number | string;

/** A Boolean column: true/false on PostgreSQL, 1/0 on SQLite. */
export type Flag = boolean | number;

/** A column of Prisma's model type as the drivers return it (distributes over `| null`). */
type Column<T> = T extends bigint ? number : T extends Date ? Instant : T extends boolean ? Flag : T;
type Row<Model> = { [K in keyof Model]: Column<Model[K]> };

/** The tables the hot reads use, typed from the Prisma models generated from prisma/schema.prisma. */
export type ReadDb = {
  ApiKey: Row<ApiKey>;
  AuthLink: Row<AuthLink>;
  Connection: Row<Connection>;
  CreditLedgerEntry: Row<CreditLedgerEntry>;
  McpServer: Row<McpServer>;
  Membership: Row<Membership>;
  OperationLog: Row<OperationLog>;
  Team: Row<Team>;
  User: Row<User>;
  Workflow: Row<Workflow>;
};

/** Milliseconds since the epoch of an `Instant`; SQLite text without a zone is UTC (CURRENT_TIMESTAMP). */
export function instantMs(value: Instant): number {
  if (typeof value === "number") return value;
  return Date.parse(value.includes("T") ? value : `${value.replace(" ", "T")}Z`);
}
