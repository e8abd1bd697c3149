// The statuses of an approval request (CONTRACT §8), for the server, the dashboard's filters and the docs.
// `cancelled`: the permission it was filed under went away before it ran (its server's write policy
// turned off, its server, token, connection or requester gone); nothing was written.
export const APPROVAL_STATUS_VALUES = [
  "pending",
  "running",
  "rejected",
  "expired",
  "cancelled",
  "succeeded",
  "failed",
] as const;
export type ApprovalStatusValue = (typeof APPROVAL_STATUS_VALUES)[number];
