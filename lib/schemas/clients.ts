import { z } from "zod";
import { cursorParam, limitParam, unixSecondsParam } from "@/lib/schemas/common";
import { CONNECTION_HEALTHS, type ConnectionHealth } from "@/lib/schemas/connections";
import { USAGE_MAX_DAYS } from "@/lib/schemas/usage";

// The dashboard's Clients page and client page (issue 50): one row per external_id.

/** What the Clients table sorts by; each has the direction a person expects first (names A→Z, numbers high→low). */
export const CLIENT_SORTS = ["name", "credits", "operations", "errors", "last_activity", "connections"] as const;
export type ClientSort = (typeof CLIENT_SORTS)[number];

export const listClientsQuerySchema = z
  .object({
    q: z.string().max(255, "is longer than 255 characters").optional(),
    health: z.enum(CONNECTION_HEALTHS, { error: `must be one of ${CONNECTION_HEALTHS.join(", ")}` }).optional(),
    sort: z.enum(CLIENT_SORTS, { error: `must be one of ${CLIENT_SORTS.join(", ")}` }).optional(),
    order: z.enum(["asc", "desc"], { error: "must be asc or desc" }).optional(),
    limit: limitParam(500, 100),
    cursor: cursorParam.optional(),
  })
  .strict();
export type ListClientsQuery = z.infer<typeof listClientsQuerySchema>;

/** A period of the CSV export: Unix seconds, [from, to), at most USAGE_MAX_DAYS long. */
export const clientUsageCsvQuerySchema = z
  .object({
    from: unixSecondsParam,
    to: unixSecondsParam,
    // A download link cannot send the team header (see the route).
    team: z.string().max(255).optional(),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.from > q.to) ctx.addIssue({ code: "custom", path: ["from"], message: "must not be after to" });
    else if (q.to - q.from > USAGE_MAX_DAYS * 86_400)
      ctx.addIssue({ code: "custom", path: ["to"], message: `is more than ${USAGE_MAX_DAYS} days after from` });
  });

export type ClientConnection = {
  id: string;
  type: string;
  display_name: string | null;
  health: ConnectionHealth;
  health_error: string | null;
};

export type ClientRow = {
  /** The client's segment in the dashboard's URLs (lib/clients/client-key.ts). */
  id: string;
  /** null: the No client group (connections without an external_id, charges without a connection). */
  external_id: string | null;
  connections: ClientConnection[];
  /** The least healthy of its connections; null when it has none. */
  health: ConnectionHealth | null;
  /** Credits attributed in the current billing period. */
  credits: number;
  /** Credits of the three billing periods before this one, oldest first. */
  trend: number[];
  operations_7d: number;
  errors_7d: number;
  /** Unix seconds of the last operation on any of its connections. */
  last_activity: number | null;
  pending_links: number;
};

export type ClientsPage = {
  data: ClientRow[];
  has_more: boolean;
  next_cursor: string | null;
  /** Every client matching the filters (all pages). */
  total: number;
  period: { start: number; end: number };
};

export type ClientConnectionDetail = ClientConnection & {
  external_id: string | null;
  is_private: boolean;
  checked_at: number | null;
  last_used_at: number | null;
  stale: boolean;
  duplicate_of: string[];
  created_at: number;
  /** Credits attributed in the current billing period. */
  credits: number;
  operations_7d: number;
  errors_7d: number;
};

export type ClientDetail = {
  id: string;
  external_id: string | null;
  connections: ClientConnectionDetail[];
  /** Credits of what ran on no connection (only the No client group has them). */
  unattributed_credits: number;
  pending_links: number;
  workflows: { id: string; name: string; active: boolean; connection_ids: string[] }[];
};

/** What *Check now* found for each connection of a client (`connection check`'s object). */
export type ClientCheckResult = {
  checks: { id: string; health: ConnectionHealth; checked_at: number; error: string | null }[];
};
