// The chain rule of event triggers (CONTRACT §13): an event a run causes starts no workflow
// already in that run's chain (lib/webhooks/event-chain.ts), and none once the chain holds
// MAX_CHAIN runs. Pure: the docs page states the number from here.

export const MAX_CHAIN = 3;

/** Whether an event emitted within `chain` may start a run of workflow `workflowId`. */
export const chainAllows = (chain: string[], workflowId: string) =>
  chain.length < MAX_CHAIN && !chain.includes(workflowId);
