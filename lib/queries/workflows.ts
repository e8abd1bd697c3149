"use client";

import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/queries/api-client";
import { retryUnlessClientError } from "@/lib/queries/retry";
import type { WorkflowNode } from "@/lib/schemas/workflows";

export type { WorkflowNode };

// The shapes of /api/dashboard/workflows*, workflow-runs and workflow-schedule as the pages read them.

/**
 * `waiting_approval`: parked at an approval step; `stopped`: ended by flow.stop or an approval
 * rejected, expired or cancelled (CONTRACT §13).
 */
export type RunStatus = "queued" | "running" | "waiting_approval" | "success" | "error" | "stopped" | "refused";
type RunTrigger = "schedule" | "manual" | "simulated";
/** `stop`: a flow.stop that ran, or an approval step that was not approved. */
export type RunNodeStatus = "start" | "success" | "error" | "skipped" | "stop";

/**
 * One step of a run: a node, or one row of a node that loops (`iteration` 0-based of
 * `iterations`; null on a loop's `empty` step or its list's error, and on a node that does not loop).
 */
export type RunNode = {
  node_id: string;
  label: string;
  operation_id: string | null;
  log_id: string;
  status: RunNodeStatus;
  /** Unix ms. */
  started_at: number;
  completed_at: number | null;
  duration_ms: number | null;
  retry_attempts: number;
  credits: number;
  cache_hit: boolean;
  error: string | null;
  iteration: number | null;
  iterations: number | null;
  /**
   * Why it was skipped (`condition`, `empty`) or stopped (`rejected`, `expired`, `cancelled`, or
   * flow.stop's reason).
   */
  reason: string | null;
  /** An approval step's request: the Approvals page shows it. */
  approval_id: string | null;
};

/** One run; times are Unix milliseconds. */
export type WorkflowRun = {
  id: string;
  workflow_id: string;
  workflow_name: string;
  trigger: RunTrigger;
  slot_at: number | null;
  started_by: string | null;
  status: RunStatus;
  due_at: number;
  started_at: number | null;
  completed_at: number | null;
  duration_ms: number | null;
  credits: number | null;
  error: string | null;
  failed_node_id: string | null;
  taken_over: boolean;
  nodes: RunNode[];
};

/** A run with each node's input and output (from its log). */
/** `redacted`: why inputs and outputs are hidden (a run on a teammate's private connection), else null. */
export type WorkflowRunDetail = Omit<WorkflowRun, "nodes"> & {
  redacted: string | null;
  nodes: (RunNode & { input: unknown; output: unknown })[];
};

/** A workflow as saved; next_run_at in Unix seconds. */
export type Workflow = {
  id: string;
  name: string;
  active: boolean;
  schedule: string | null;
  timezone: string | null;
  next_run_at: number | null;
  nodes: WorkflowNode[];
  created_by_user_id: string | null;
  deactivated_reason: string | null;
  created_at: string;
  updated_at: string;
};

/**
 * A node that would fail for its connection: deleted, waiting for re-authorization, or none chosen
 * (connection_id null).
 */
type ConnectionProblem = { node_id: string; connection_id: string | null; problem: string };

/** A row of the Workflows page. */
export type WorkflowListItem = Workflow & {
  writes: boolean;
  last_run: WorkflowRun | null;
  credits_this_period: number;
  connection_problems: ConnectionProblem[];
};

type WorkflowNodeDetail = WorkflowNode & {
  operation: { id: string; title: string; kind: "read" | "write"; credits: number; types: string[] } | null;
  connection: { id: string; type: string; display_name: string | null; external_id: string | null } | null;
  connection_problem: string | null;
};

/**
 * One workflow for its page and the editor: each node with its operation, connection and what is
 * wrong with the connection.
 */
export type WorkflowDetail = Omit<Workflow, "nodes"> & { nodes: WorkflowNodeDetail[] };

/** What the editor saves (POST) or changes (PATCH). */
export type WorkflowDraft = {
  name: string;
  nodes: WorkflowNode[];
  schedule: string | null;
  timezone: string | null;
  active: boolean;
  /** What starts it (CONTRACT §13); left out, a schedule when `schedule` is set, else manual. */
  trigger?: "manual" | "schedule" | "webhook" | "event";
  events?: string[] | null;
};

const RUNS_PAGE_SIZE = 25;
/** How often a run that is queued or running is looked at again. */
const RUN_POLL_MS = 2_000;
/** A run parked for an approval moves when a person decides: looked at less often. */
const WAITING_POLL_MS = 5_000;
// The list's next and last runs move on their own (schedules run): refreshed now and then.
const LIST_REFRESH_MS = 30_000;

/** The URL parameter that opens a run's detail on the workflow page. */
export const RUN_PARAM = "run";

const workflowKeys = {
  /** Every workflows query of the team: invalidated after any change. */
  all: (teamId: string) => [teamId, "workflows"] as const,
  list: (teamId: string) => [teamId, "workflows", "list"] as const,
  detail: (teamId: string, id: string) => [teamId, "workflows", "detail", id] as const,
  runs: (teamId: string, id: string) => [teamId, "workflows", "runs", id] as const,
  run: (teamId: string, runId: string) => [teamId, "workflows", "run", runId] as const,
  schedule: (teamId: string, schedule: string, timezone: string) =>
    [teamId, "workflows", "schedule", schedule, timezone] as const,
};

const path = (id: string) => `/api/dashboard/workflows/${encodeURIComponent(id)}`;
export const isUnderway = (status: RunStatus | undefined) => status === "queued" || status === "running";
/** How often a run in this status is looked at again, or false once it has ended. */
const pollEvery = (status: RunStatus | undefined) =>
  isUnderway(status) ? RUN_POLL_MS : status === "waiting_approval" ? WAITING_POLL_MS : false;

export const workflowsQuery = (teamId: string) =>
  queryOptions({
    queryKey: workflowKeys.list(teamId),
    queryFn: ({ signal }) =>
      apiFetch<{ workflows: WorkflowListItem[] }>(teamId, "/api/dashboard/workflows", { signal }).then(
        (r) => r.workflows,
      ),
    refetchInterval: LIST_REFRESH_MS,
    retry: retryUnlessClientError,
  });

export const workflowQuery = (teamId: string, id: string) =>
  queryOptions({
    queryKey: workflowKeys.detail(teamId, id),
    queryFn: ({ signal }) => apiFetch<WorkflowDetail>(teamId, path(id), { signal }),
    retry: retryUnlessClientError,
  });

/**
 * The run history, newest first; looked at every 2 s while a run in it is queued or running, every
 * 5 s while one waits for an approval.
 */
export function workflowRunsOptions(teamId: string, id: string) {
  return infiniteQueryOptions({
    queryKey: workflowKeys.runs(teamId, id),
    queryFn: ({ pageParam, signal }) => {
      const qs = new URLSearchParams({ limit: String(RUNS_PAGE_SIZE) });
      if (pageParam) qs.set("cursor", pageParam);
      return apiFetch<{ runs: WorkflowRun[]; next_cursor: string | null }>(teamId, `${path(id)}/runs?${qs}`, {
        signal,
      });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    staleTime: 0,
    retry: retryUnlessClientError,
    refetchInterval: (query) => {
      const runs = query.state.data?.pages.flatMap((p) => p.runs) ?? [];
      return runs.some((r) => isUnderway(r.status))
        ? RUN_POLL_MS
        : runs.some((r) => r.status === "waiting_approval")
          ? WAITING_POLL_MS
          : false;
    },
  });
}

export const workflowRunQuery = (teamId: string, runId: string) =>
  queryOptions({
    queryKey: workflowKeys.run(teamId, runId),
    queryFn: ({ signal }) =>
      apiFetch<WorkflowRunDetail>(teamId, `/api/dashboard/workflow-runs/${encodeURIComponent(runId)}`, { signal }),
    staleTime: 0,
    retry: retryUnlessClientError,
    refetchInterval: (query) => pollEvery(query.state.data?.status),
  });

/** The next five runs of a cron expression in a time zone (Unix ms), or the 400 that says what is wrong with it. */
export const schedulePreviewQuery = (teamId: string, schedule: string, timezone: string) =>
  queryOptions({
    queryKey: workflowKeys.schedule(teamId, schedule, timezone),
    queryFn: ({ signal }) =>
      apiFetch<{ next_runs: number[] }>(
        teamId,
        `/api/dashboard/workflow-schedule?${new URLSearchParams({ schedule, timezone })}`,
        { signal },
      ).then((r) => r.next_runs),
    enabled: schedule.trim().length > 0,
    staleTime: 60_000,
    retry: false,
  });

/** Saves a new workflow (POST) or the changes to one (PATCH); the answer is the saved workflow. */
export function useSaveWorkflow(teamId: string, id?: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (draft: WorkflowDraft) =>
      apiFetch<Workflow>(teamId, id ? path(id) : "/api/dashboard/workflows", {
        method: id ? "PATCH" : "POST",
        body: JSON.stringify(draft),
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: workflowKeys.all(teamId) }),
  });
}

export function useSetWorkflowActive(teamId: string, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (active: boolean) =>
      apiFetch<Workflow>(teamId, path(id), { method: "PATCH", body: JSON.stringify({ active }) }),
    onSuccess: () => client.invalidateQueries({ queryKey: workflowKeys.all(teamId) }),
  });
}

export function useDeleteWorkflow(teamId: string, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<Workflow>(teamId, path(id), { method: "DELETE" }),
    onSuccess: () => {
      client.removeQueries({ queryKey: workflowKeys.detail(teamId, id) });
      return client.invalidateQueries({ queryKey: workflowKeys.list(teamId) });
    },
  });
}

/** Run now: queues a run; the history is looked at again at once, then every 2 s while it is underway. */
export function useRunWorkflow(teamId: string, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<{ run_id: string }>(teamId, `${path(id)}/runs`, { method: "POST" }),
    onSuccess: () => client.invalidateQueries({ queryKey: workflowKeys.runs(teamId, id) }),
  });
}

/** Points every node on connection `from` at connection `to`. */
export function useRebindWorkflow(teamId: string, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { from: string; to: string }) =>
      apiFetch<{ id: string; nodes_rebound: number }>(teamId, `${path(id)}/rebind`, {
        method: "POST",
        body: JSON.stringify(body),
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: workflowKeys.all(teamId) }),
  });
}

/** The Copilot's answer: a draft checked as a save checks it (nothing saved), the problems left, the model's reply. */
export type CopilotAnswer = {
  draft: WorkflowDraft | null;
  problems: string[];
  reply: string;
  usage: { input_tokens: number; output_tokens: number };
};

/** One message to the workflow Copilot (one credit). */
export function useCopilotDraft(teamId: string) {
  return useMutation({
    mutationFn: (body: {
      model_connection_id: string;
      message: string;
      workflow_id?: string;
      current?: Partial<WorkflowDraft>;
    }) =>
      apiFetch<CopilotAnswer>(teamId, "/api/dashboard/workflows/copilot", {
        method: "POST",
        body: JSON.stringify(body),
      }),
  });
}
