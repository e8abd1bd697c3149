import { WRITE_POLICIES, type WritePolicy } from "@/lib/schemas/write-policy";
import { z } from "zod";
import type { ConnectionTypeJson } from "@/lib/schemas/connections";

// Shapes of the dashboard-only endpoints under /api/dashboard (not part of the public /v1 spec).

/** /api/dashboard/connection-types: the public ConnectionType plus what the pages need. */
export type DashboardConnectionType = ConnectionTypeJson & {
  logo: string | null;
  /**
   * For owners: the unset settings (an OAuth app's id and secret) that would add `oauth` to the
   * type; empty when nothing is missing. A type with no auth_methods yet is listed only to owners.
   */
  missing_settings: string[];
  /**
   * For a model the agent talks to (openai, anthropic, sandbox_model): the model a conversation
   * uses when it names none; null for every other type.
   */
  default_model: string | null;
};

export type UsageDay = { day: number; workflow: number; agent: number; copilot: number; mcp: number; total: number };
export type DailyUsage = {
  /** Unix seconds. */
  period_start: number;
  period_end: number;
  /** The server's clock, so a forecast does not depend on the browser's. */
  now: number;
  /** One entry per UTC day of the period; `day` is that day's midnight in Unix seconds. */
  days: UsageDay[];
  totals: { workflow: number; agent: number; copilot: number; mcp: number };
};

export const createApiKeyBodySchema = z
  .object({ name: z.string().trim().min(1, "name is empty").max(100, "name is longer than 100 characters") })
  .strict();

export type ApiKeyJson = {
  id: string;
  prefix: string;
  name: string | null;
  created_by: { id: string; email: string };
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
};

const ROLES = ["owner", "member"] as const;
export const changeRoleBodySchema = z
  .object({ role: z.enum(ROLES, { error: "role must be owner or member" }) })
  .strict();

export type MemberJson = {
  user_id: string;
  email: string;
  name: string | null;
  role: (typeof ROLES)[number];
  joined_at: number;
};

/**
 * A connection an MCP server may use; its name is withheld from viewers who cannot see that
 * connection (someone else's private one).
 */
export type McpServerConnectionJson = {
  id: string;
  type: string;
  display_name: string | null;
  is_private: boolean;
  visible_to_you: boolean;
};

export type McpServerJson = {
  id: string;
  name: string;
  owner: { id: string; email: string } | null;
  is_private: boolean;
  /** How many connections the saved permissions allow (the most any request may use). */
  connection_permissions: number;
  connections: McpServerConnectionJson[];
  active_tokens: number;
  /** The address MCP clients connect to, with a bearer MCP token. */
  mcp_url: string;
  /** Whether the viewer may rename, re-permission, delete it and manage its tokens (its owner, or a team owner). */
  can_manage: boolean;
  /** What run_write_operation does on this server (CONTRACT §8). */
  write_policy: WritePolicy;
  created_at: number;
  /** Its latest use through a token or a signed-in app (revoked ones too), or null if never used. */
  last_used: McpServerLastUse | null;
  /** MCP calls logged through it since `since` (Unix s: the team's log history window). */
  calls: { count: number; since: number };
};

/** When (Unix s, to the minute) and through what a server was last used. */
export type McpServerLastUse =
  | { at: number; via: "token"; name: string | null; prefix: string }
  | { at: number; via: "app"; name: string; by: string };

export type McpTokenJson = {
  id: string;
  prefix: string;
  name: string | null;
  created_by: { id: string; email: string } | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
};

/**
 * An AI client a member allowed, by OAuth, to act as them on one MCP server (a grant):
 * /api/dashboard/mcp-servers/{id}/apps and /api/dashboard/connected-apps.
 */
export type ConnectedAppJson = {
  id: string;
  /** `verified` when the client's metadata document names it (its id is that document's https URL). */
  client: { id: string; name: string; verified: boolean };
  mcp_server: { id: string; name: string };
  granted_by: { id: string; email: string };
  created_at: number;
  last_used_at: number | null;
  /** The member who allowed it, the server's owner, or a team owner for a shared server. */
  can_revoke: boolean;
};

const mcpServerName = z
  .string({ error: "is required and must be a string" })
  .trim()
  .min(1, "is empty")
  .max(100, "must be at most 100 characters");
const connectionIds = z
  .array(
    z
      .string({ error: "every connection id must be a string" })
      .min(1, "a connection id is empty")
      .max(255, "a connection id is longer than 255 characters"),
    {
      error: "must be an array of connection ids",
    },
  )
  .max(500, "must list at most 500 connections");

export const createMcpServerBodySchema = z
  .object({
    name: mcpServerName,
    is_private: z.boolean({ error: "must be true or false" }).optional(),
    connection_ids: connectionIds.optional(),
    write_policy: z.enum(WRITE_POLICIES, { error: `must be one of ${WRITE_POLICIES.join(", ")}` }).optional(),
  })
  .strict();

/** `connection_ids` replaces the saved permissions as a whole. */
export const updateMcpServerBodySchema = z
  .object({
    name: mcpServerName.optional(),
    is_private: z.boolean({ error: "must be true or false" }).optional(),
    connection_ids: connectionIds.optional(),
    write_policy: z.enum(WRITE_POLICIES, { error: `must be one of ${WRITE_POLICIES.join(", ")}` }).optional(),
  })
  .strict()
  .refine(
    (b) =>
      b.name !== undefined ||
      b.is_private !== undefined ||
      b.connection_ids !== undefined ||
      b.write_policy !== undefined,
    "Send at least one of name, is_private, connection_ids, write_policy.",
  );

export const createMcpTokenBodySchema = z
  .object({
    name: z.string({ error: "must be a string" }).trim().max(100, "must be at most 100 characters").optional(),
  })
  .strict();

export const INVITE_TTL_DAYS = 7;

export const createInviteBodySchema = z
  .object({
    email: z.string({ error: "is required" }).trim().min(1, "is empty").max(254, "must be at most 254 characters"),
    role: z.enum(ROLES, { error: "must be owner or member" }).default("member"),
  })
  .strict();

/** Accepting an invite: a signed-in account joins as itself; a new account sets its password. */
export const acceptInviteBodySchema = z
  .object({
    password: z.string().min(8, "must be at least 8 characters").max(200, "must be at most 200 characters").optional(),
    name: z.string().trim().max(100, "must be at most 100 characters").optional(),
  })
  .strict();

/** An open invite as listed: its link is not (it is stored only as a hash). */
export type InviteJson = {
  id: string;
  email: string;
  role: (typeof ROLES)[number];
  status: "pending" | "expired";
  invited_by: { id: string; email: string } | null;
  created_at: number;
  expires_at: number;
};

/** A new invite: the only answer that carries its link. */
export type CreatedInviteJson = InviteJson & { url: string };
