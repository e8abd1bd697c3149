// MCP servers' write policies (CONTRACT §8). Shared by the server, the dashboard's settings and
// the docs, so it holds no server code.

export const WRITE_POLICIES = ["off", "approval", "allowed"] as const;
export type WritePolicy = (typeof WRITE_POLICIES)[number];

/** What each policy means for the agents using the server, as the settings and docs say it. */
export const WRITE_POLICY_DESCRIPTIONS: Record<WritePolicy, { label: string; consequence: string }> = {
  off: {
    label: "Off",
    consequence:
      "Agents can only read. run_write_operation is refused, and nothing is ever written to a connected account through this server.",
  },
  approval: {
    label: "Ask for approval",
    consequence:
      "An agent's write is checked, then waits as a request on the Approvals page. A team member approves or rejects it; approving runs it exactly once and charges it like any call. Requests not decided in time expire and run nothing.",
  },
  allowed: {
    label: "Allowed without approval",
    consequence:
      "Agents write to the connected accounts directly (pause campaigns, change budgets, post messages) with no person in between. Only team owners can choose this.",
  },
};

export const WRITE_POLICY_SETTINGS_HINT =
  "A team owner can change this server's write policy in Settings → MCP servers.";

/** How long a request waits for a decision: APPROVAL_TTL_MINUTES, default 60. */
export function approvalTtlSeconds(): number {
  const raw = process.env.APPROVAL_TTL_MINUTES;
  const minutes = raw === undefined || raw === "" ? 60 : Number(raw);
  return Number.isFinite(minutes) && minutes > 0 ? Math.round(minutes * 60) : 3600;
}
