/** The job loop that continues agent turns once the approval they wait for is decided (lib/agents). */
export const AGENT_TURNS_JOB = "agent-turns";
