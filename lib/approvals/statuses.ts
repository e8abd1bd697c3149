// The statuses of an approval request (CONTRACT §8), for the server, the dashboard's filters and the docs.
export const APPROVAL_STATUS_VALUES = ["pending", "running", "rejected", "expired", "succeeded", "failed"] as const;
export type ApprovalStatusValue = (typeof APPROVAL_STATUS_VALUES)[number];
