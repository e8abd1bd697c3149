"use client";

import { queryOptions } from "@tanstack/react-query";
import { apiFetch } from "@/lib/queries/api-client";
import type { ApiKeyJson, InviteJson, McpServerJson, MemberJson } from "@/lib/schemas/dashboard";

export const settingsKeys = {
  apiKeys: (teamId: string) => [teamId, "api-keys"] as const,
  members: (teamId: string) => [teamId, "members"] as const,
  invites: (teamId: string) => [teamId, "invites"] as const,
  mcpServers: (teamId: string) => [teamId, "mcp-servers"] as const,
};

export const apiKeysQuery = (teamId: string) =>
  queryOptions({ queryKey: settingsKeys.apiKeys(teamId), queryFn: () => apiFetch<{ data: ApiKeyJson[] }>(teamId, "/api/dashboard/api-keys") });

export const membersQuery = (teamId: string) =>
  queryOptions({ queryKey: settingsKeys.members(teamId), queryFn: () => apiFetch<{ data: MemberJson[] }>(teamId, "/api/dashboard/members") });

export const mcpServersQuery = (teamId: string) =>
  queryOptions({ queryKey: settingsKeys.mcpServers(teamId), queryFn: () => apiFetch<{ data: McpServerJson[] }>(teamId, "/api/dashboard/mcp-servers") });

export const createApiKey = (teamId: string, name: string) =>
  apiFetch<ApiKeyJson & { key: string }>(teamId, "/api/dashboard/api-keys", { method: "POST", body: JSON.stringify({ name }) });

export const revokeApiKey = (teamId: string, id: string) => apiFetch<{ id: string; revoked: true }>(teamId, `/api/dashboard/api-keys/${encodeURIComponent(id)}`, { method: "DELETE" });

export const changeMemberRole = (teamId: string, userId: string, role: MemberJson["role"]) =>
  apiFetch<MemberJson>(teamId, `/api/dashboard/members/${encodeURIComponent(userId)}`, { method: "PATCH", body: JSON.stringify({ role }) });

export const invitesQuery = (teamId: string) =>
  queryOptions({ queryKey: settingsKeys.invites(teamId), queryFn: () => apiFetch<{ data: InviteJson[] }>(teamId, "/api/dashboard/invites") });

export const createInvite = (teamId: string, body: { email: string; role: MemberJson["role"] }) =>
  apiFetch<InviteJson>(teamId, "/api/dashboard/invites", { method: "POST", body: JSON.stringify(body) });

export const revokeInvite = (teamId: string, id: string) => apiFetch<{ id: string; revoked: true }>(teamId, `/api/dashboard/invites/${encodeURIComponent(id)}`, { method: "DELETE" });

export const removeMember = (teamId: string, userId: string) =>
  apiFetch<{ user_id: string; removed: true; api_keys_revoked: number }>(teamId, `/api/dashboard/members/${encodeURIComponent(userId)}`, { method: "DELETE" });
