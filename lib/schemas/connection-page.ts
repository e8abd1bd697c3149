import { z } from "zod";
import { idParam } from "@/lib/schemas/common";
import type { ConnectionHealth } from "@/lib/schemas/connections";
import type { LogJson } from "@/lib/schemas/logs";

// The dashboard's connection page and the Connections list's bulk delete (issue 50): request
// bodies the routes parse, and the shapes they answer with.

/** Bulk deletes stay a size one confirmation can name. */
const MAX_BULK_DELETE = 100;

export const renameConnectionBodySchema = z
  .object({
    display_name: z
      .string({ error: "is required and must be a string" })
      .max(100, "must be at most 100 characters")
      .refine((name) => name.trim().length > 0, "must not be empty or blank"),
  })
  .strict();

export const bulkDeleteConnectionsBodySchema = z
  .object({
    connection_ids: z
      .array(idParam("connection_id"), { error: "is required: an array of connection ids" })
      .min(1, "names no connection: select at least one")
      .max(MAX_BULK_DELETE, `names more than ${MAX_BULK_DELETE} connections: delete them in smaller batches`),
  })
  .strict();

/** The facts the Connections list shows beside each connection (lib/connections/connection-facts.ts). */
export type ConnectionFactsJson = {
  id: string;
  type: string;
  display_name: string | null;
  external_id: string | null;
  is_private: boolean;
  health: ConnectionHealth;
  health_error: string | null;
  checked_at: number | null;
  last_used_at: number | null;
  stale: boolean;
  duplicate_of: string[];
  created_at: number;
};

/** A connection named by id with the label a person reads. */
type NamedConnection = { id: string; type: string; display_name: string | null; external_id: string | null };

export type ConnectionPageJson = ConnectionFactsJson & {
  type_name: string;
  /** The other connections of the same provider account, named (duplicate_of in full). */
  duplicates: NamedConnection[];
  stale_after_days: number;
  /** What it lets Patchbay do, in the words the connect page asked consent with. */
  consent: {
    provider_name: string;
    reads: string[];
    writes: string[];
    /** The scopes asked of the provider, each with what it allows (the type's catalogue entry). */
    scopes: readonly { name: string; allows: string; changes?: boolean }[];
    scopes_set_on_app: boolean;
  };
  uses: {
    workflows: { id: string; name: string; active: boolean }[];
    mcp_servers: { id: string; name: string; is_private: boolean }[];
    /** Agent conversations the caller can read whose operations ran on it, latest use first. */
    conversations: { id: string; title: string; last_used_at: number }[];
  };
};

export type ConnectionSpendJson = {
  period_start: number;
  period_end: number;
  /** Credits attributed to the connection in the current billing period. */
  credits: number;
  /** One entry per UTC day of the period (future days hold zero). */
  days: { day: number; credits: number }[];
};

export type ConnectionErrorsJson = { data: LogJson[] };

export type BulkDeletePreviewJson = {
  connections: NamedConnection[];
  /** The active workflows the delete would deactivate, with which of the connections each uses. */
  workflows: { id: string; name: string; connection_ids: string[] }[];
};

export type BulkDeleteResultJson = { deleted: string[]; deactivated_workflow_ids: string[] };
