"use client";

import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { WritePolicy } from "@/lib/schemas/write-policy";
import { apiFetch } from "@/lib/queries/api-client";
import type {
  ApiKeyJson,
  ConnectedAppJson,
  CreatedInviteJson,
  InviteJson,
  McpServerJson,
  McpTokenJson,
  MemberJson,
} from "@/lib/schemas/dashboard";
import type { AuditEventJson } from "@/lib/schemas/audit";

export const settingsKeys = {
  apiKeys: (teamId: string) => [teamId, "api-keys"] as const,
  members: (teamId: string) => [teamId, "members"] as const,
  invites: (teamId: string) => [teamId, "invites"] as const,
  mcpServers: (teamId: string) => [teamId, "mcp-servers"] as const,
  mcpTokens: (teamId: string, serverId: string) => [teamId, "mcp-servers", serverId, "tokens"] as const,
  mcpApps: (teamId: string, serverId: string) => [teamId, "mcp-servers", serverId, "apps"] as const,
  connectedApps: (teamId: string) => [teamId, "connected-apps"] as const,
};

export const apiKeysQuery = (teamId: string) =>
  queryOptions({
    queryKey: settingsKeys.apiKeys(teamId),
    queryFn: () => apiFetch<{ data: ApiKeyJson[] }>(teamId, "/api/dashboard/api-keys"),
  });

export const membersQuery = (teamId: string) =>
  queryOptions({
    queryKey: settingsKeys.members(teamId),
    queryFn: () => apiFetch<{ data: MemberJson[] }>(teamId, "/api/dashboard/members"),
  });

export const mcpServersQuery = (teamId: string) =>
  queryOptions({
    queryKey: settingsKeys.mcpServers(teamId),
    queryFn: () => apiFetch<{ data: McpServerJson[] }>(teamId, "/api/dashboard/mcp-servers"),
  });

export const createApiKey = (teamId: string, name: string) =>
  apiFetch<ApiKeyJson & { key: string }>(teamId, "/api/dashboard/api-keys", {
    method: "POST",
    body: JSON.stringify({ name }),
  });

export const revokeApiKey = (teamId: string, id: string) =>
  apiFetch<{ id: string; revoked: true }>(teamId, `/api/dashboard/api-keys/${encodeURIComponent(id)}`, {
    method: "DELETE",
  });

export const changeMemberRole = (teamId: string, userId: string, role: MemberJson["role"]) =>
  apiFetch<MemberJson>(teamId, `/api/dashboard/members/${encodeURIComponent(userId)}`, {
    method: "PATCH",
    body: JSON.stringify({ role }),
  });

export const invitesQuery = (teamId: string) =>
  queryOptions({
    queryKey: settingsKeys.invites(teamId),
    queryFn: () => apiFetch<{ data: InviteJson[] }>(teamId, "/api/dashboard/invites"),
  });

export const createInvite = (teamId: string, body: { email: string; role: MemberJson["role"] }) =>
  apiFetch<CreatedInviteJson>(teamId, "/api/dashboard/invites", { method: "POST", body: JSON.stringify(body) });

export const revokeInvite = (teamId: string, id: string) =>
  apiFetch<{ id: string; revoked: true }>(teamId, `/api/dashboard/invites/${encodeURIComponent(id)}`, {
    method: "DELETE",
  });

export const removeMember = (teamId: string, userId: string) =>
  apiFetch<{ user_id: string; removed: true; api_keys_revoked: number }>(
    teamId,
    `/api/dashboard/members/${encodeURIComponent(userId)}`,
    { method: "DELETE" },
  );

export type McpServerInput = {
  name: string;
  is_private: boolean;
  connection_ids: string[];
  write_policy?: WritePolicy;
};
export type CreatedMcpToken = { id: string; prefix: string; name: string | null; created_at: number; token: string };

const mcpServerPath = (id: string) => `/api/dashboard/mcp-servers/${encodeURIComponent(id)}`;

export const mcpTokensQuery = (teamId: string, serverId: string) =>
  queryOptions({
    queryKey: settingsKeys.mcpTokens(teamId, serverId),
    queryFn: () => apiFetch<{ data: McpTokenJson[] }>(teamId, `${mcpServerPath(serverId)}/tokens`),
  });

export const createMcpServer = (teamId: string, body: McpServerInput) =>
  apiFetch<McpServerJson>(teamId, "/api/dashboard/mcp-servers", { method: "POST", body: JSON.stringify(body) });

export const updateMcpServer = (teamId: string, id: string, patch: Partial<McpServerInput>) =>
  apiFetch<McpServerJson>(teamId, mcpServerPath(id), { method: "PATCH", body: JSON.stringify(patch) });

export const deleteMcpServer = (teamId: string, id: string) =>
  apiFetch<{ id: string; deleted: true }>(teamId, mcpServerPath(id), { method: "DELETE" });

export const createMcpToken = (teamId: string, serverId: string, name: string) =>
  apiFetch<CreatedMcpToken>(teamId, `${mcpServerPath(serverId)}/tokens`, {
    method: "POST",
    body: JSON.stringify(name ? { name } : {}),
  });

export const revokeMcpToken = (teamId: string, serverId: string, tokenId: string) =>
  apiFetch<{ id: string; revoked: true }>(teamId, `${mcpServerPath(serverId)}/tokens/${encodeURIComponent(tokenId)}`, {
    method: "DELETE",
  });

/** The apps connected to one MCP server by OAuth, newest first. */
export const mcpAppsQuery = (teamId: string, serverId: string) =>
  queryOptions({
    queryKey: settingsKeys.mcpApps(teamId, serverId),
    queryFn: () => apiFetch<{ data: ConnectedAppJson[] }>(teamId, `${mcpServerPath(serverId)}/apps`),
  });

/** The apps the signed-in member allowed in this team, on any MCP server. */
export const connectedAppsQuery = (teamId: string) =>
  queryOptions({
    queryKey: settingsKeys.connectedApps(teamId),
    queryFn: () => apiFetch<{ data: ConnectedAppJson[] }>(teamId, "/api/dashboard/connected-apps"),
  });

/** Ends an app's access (its grant): its tokens are refused from its next call. */
export const revokeConnectedApp = (teamId: string, grantId: string) =>
  apiFetch<{ id: string; revoked: true }>(teamId, `/api/dashboard/connected-apps/${encodeURIComponent(grantId)}`, {
    method: "DELETE",
  });

const auditKeys = {
  all: (teamId: string) => [teamId, "audit"] as const,
  infinite: (teamId: string, action: string | undefined) =>
    [teamId, "audit", "infinite", { action: action ?? null }] as const,
};

/** The audit log, newest first, a page at a time; `action` narrows it to one kind of change. */
export const auditEventsQuery = (teamId: string, action: string | undefined) =>
  infiniteQueryOptions({
    queryKey: auditKeys.infinite(teamId, action),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ limit: "50" });
      if (action) params.set("action", action);
      if (pageParam) params.set("cursor", pageParam);
      return apiFetch<{ data: AuditEventJson[]; has_more: boolean; next_cursor: string | null }>(
        teamId,
        `/api/dashboard/audit?${params}`,
      );
    },
    getNextPageParam: (last) => (last.has_more ? last.next_cursor : null),
  });

/** Ends every session of the signed-in user (then the page signs this one out). */
export const signOutEverywhere = (teamId: string) =>
  apiFetch<{ signed_out_everywhere: true }>(teamId, "/api/dashboard/sessions", { method: "DELETE" });
