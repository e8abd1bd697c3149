/** The job loop that continues agent turns once the approval they wait for is decided (lib/agents). */
export const AGENT_TURNS_JOB = "agent-turns";

/** The job loop of workflow runs (lib/workflows/runner.ts): queued runs, schedules, takeovers. */
export const WORKFLOW_RUNS_JOB = "workflow-runs";
