"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/queries/api-client";
import { connectionKeys } from "@/lib/queries/connections";
import type { ConnectionJson } from "@/lib/schemas/connections";

export type AuthLinkStatusValue = "pending" | "connected" | "expired";
export type CreatedAuthLink = { id: string; url: string; expires_at: number };
export type AuthLinkStatus = {
  id: string;
  status: AuthLinkStatusValue;
  connection_type: string;
  connection_id: string | null;
  external_id: string | null;
  expires_at: number;
  consumed_at: number | null;
  created_at: number;
  updated_at: number;
  connections: ConnectionJson[];
};
export type RecentAuthLink = {
  id: string;
  status: AuthLinkStatusValue;
  connection_type: string;
  external_id: string | null;
  redirect_url: string | null;
  is_private: boolean;
  connection_id: string | null;
  url: string | null;
  expires_at: number;
  created_at: number;
  last_attempt: AuthLinkAttempt | null;
};
/** The latest press of Continue on a link (milliseconds); `outcome` null until its callback ends. */
export type AuthLinkAttempt = {
  started_at: number;
  answered_at: number | null;
  outcome: string | null;
  detail: string | null;
};
export type CreateAuthLinkInput = {
  connection_type: string;
  external_id?: string;
  redirect_url?: string;
  is_private?: boolean;
};

const authLinkKeys = {
  all: (teamId: string) => [teamId, "auth-links"] as const,
  recent: (teamId: string) => [teamId, "auth-links", "recent"] as const,
  status: (teamId: string, id: string) => [teamId, "auth-links", "status", id] as const,
};

const POLL_MS = 2000;
const RECENT_POLL_MS = 3000;

/** The recent links; polled every 3 s while one is pending, so its last attempt shows as it happens. */
export const useRecentAuthLinks = (teamId: string) =>
  useQuery({
    queryKey: authLinkKeys.recent(teamId),
    queryFn: () => apiFetch<RecentAuthLink[]>(teamId, "/api/dashboard/auth-links"),
    refetchInterval: (query) => (query.state.data?.some((l) => l.status === "pending") ? RECENT_POLL_MS : false),
  });

/** The live status of one link: polled every 2 s while it is pending, then left alone. */
export function useAuthLinkStatus(teamId: string, id: string) {
  return useQuery({
    queryKey: authLinkKeys.status(teamId, id),
    queryFn: () => apiFetch<AuthLinkStatus>(teamId, `/v1/connections/auth-links/${encodeURIComponent(id)}/status`),
    refetchInterval: (query) => (query.state.data && query.state.data.status !== "pending" ? false : POLL_MS),
    staleTime: 0,
  });
}

export function useCreateAuthLink(teamId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateAuthLinkInput) =>
      apiFetch<CreatedAuthLink>(teamId, "/v1/connections/auth-link", { method: "POST", body: JSON.stringify(body) }),
    onSuccess: () => client.invalidateQueries({ queryKey: authLinkKeys.recent(teamId) }),
  });
}

/** When a link turns connected, the recent list and the connections table are out of date. */
export function useRefreshAfterConnect(teamId: string) {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: authLinkKeys.recent(teamId) });
    void client.invalidateQueries({ queryKey: connectionKeys.all(teamId) });
  };
}
