"use client";

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/queries/api-client";
import { workflowState } from "@/lib/workflows/workflow-state";
import { retryUnlessClientError } from "@/lib/queries/retry";
import type { Workflow, WorkflowDetail, WorkflowNode, WorkflowRun, WorkflowRunDetail } from "@/lib/queries/workflows";

// The dashboard API of CONTRACT §13's triggers, replay and versions, as the workflow pages read
// it. It extends lib/queries/workflows.ts (whose types predate §13) without changing it: the
// fields below are what the server now adds to a workflow and a run. Keys share the
// [team, "workflows", …] prefix, so every workflow change invalidates them too.

export type TriggerType = "manual" | "schedule" | "webhook" | "event";
export type WorkflowTrigger = {
  type: TriggerType;
  schedule?: string | null;
  timezone?: string | null;
  events?: string[];
};

/** What a §13 workflow adds: its version and trigger, and (once, on the save that made it) its webhook URL. */
type WorkflowTriggerFields = { version: number; trigger: WorkflowTrigger; webhook_url?: string };
export type SavedWorkflow = Workflow & WorkflowTriggerFields;
export type TriggeredWorkflowDetail = WorkflowDetail & WorkflowTriggerFields;

/** The badge's state of a workflow as the API answers it: a webhook or events start it on their own too. */
export const stateOf = (w: { active: boolean; schedule: string | null; trigger?: WorkflowTrigger }) =>
  workflowState({ ...w, triggerType: w.trigger?.type });

export type RunTriggerType = "manual" | "schedule" | "webhook" | "event" | "api" | "replay" | "simulated";

/** What started a run: a webhook's body, an API call's input, or an event. */
type TriggerData =
  | { body: unknown }
  | { input: unknown }
  | { event: { id: string; type: string; created_at: number; data: unknown } }
  | null;

/** What a §13 run adds: what started it, its version, its replay links, and where a replay may start. */
export type RunTriggerFields = {
  trigger: RunTriggerType;
  version: number | null;
  replay_of: string | null;
  replayed_by: string | null;
  trigger_data: TriggerData;
  replayed_nodes: string[];
  replay: { default_from: string | null; from: string[]; last_write: string | null } | null;
};
export type TriggeredRun = Omit<WorkflowRun, "trigger"> & RunTriggerFields;
export type TriggeredRunDetail = Omit<WorkflowRunDetail, "trigger"> & RunTriggerFields;

export type WorkflowVersion = {
  version: number;
  /** Unix seconds. */
  created_at: number;
  created_by: string | null;
  created_by_email: string | null;
  name: string;
  nodes: WorkflowNode[];
  trigger: WorkflowTrigger;
};

export type BulkReplayAnswer = {
  replayed: { run_id: string; replay_of: string }[];
  skipped: { run_id: string; reason: string }[];
};

const workflowsKey = (teamId: string) => [teamId, "workflows"] as const;
const path = (id: string) => `/api/dashboard/workflows/${encodeURIComponent(id)}`;

export const workflowVersionsQuery = (teamId: string, id: string) =>
  queryOptions({
    queryKey: [teamId, "workflows", "versions", id] as const,
    queryFn: ({ signal }) =>
      apiFetch<{ versions: WorkflowVersion[] }>(teamId, `${path(id)}/versions`, { signal }).then((r) => r.versions),
    retry: retryUnlessClientError,
  });

/** Rotate: a new webhook URL, shown once; the old one answers 404 from now on. */
export function useRotateWebhookUrl(teamId: string, id: string) {
  return useMutation({
    mutationFn: () => apiFetch<{ webhook_url: string }>(teamId, `${path(id)}/webhook-token`, { method: "POST" }),
  });
}

/** Retry from this step: a replay of a failed or stopped run from `from` (default: the failed node). */
export function useReplayRun(teamId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ runId, from }: { runId: string; from?: string }) =>
      apiFetch<{ run_id: string; replay_of: string }>(
        teamId,
        `/api/dashboard/workflow-runs/${encodeURIComponent(runId)}/replay`,
        { method: "POST", body: JSON.stringify(from ? { from } : {}) },
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: workflowsKey(teamId) }),
  });
}

/** Replays each failed or stopped run of the workflow queued in [from, to) (Unix ms) that can be. */
export function useBulkReplay(teamId: string, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (range: { from: number; to: number }) =>
      apiFetch<BulkReplayAnswer>(teamId, `${path(id)}/replays`, { method: "POST", body: JSON.stringify(range) }),
    onSuccess: () => client.invalidateQueries({ queryKey: workflowsKey(teamId) }),
  });
}

/** Restore: saves an earlier version as the next one, under the rules of any save. */
export function useRestoreVersion(teamId: string, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (version: number) =>
      apiFetch<SavedWorkflow>(teamId, `${path(id)}/versions/${version}/restore`, { method: "POST" }),
    onSuccess: () => client.invalidateQueries({ queryKey: workflowsKey(teamId) }),
  });
}
