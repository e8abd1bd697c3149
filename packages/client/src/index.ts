export { Patchbay } from "./client.js";
export type {
  PatchbayOptions,
  CallOptions,
  Connection,
  ConnectionType,
  AuthLink,
  AuthLinkStatus,
  CreditBalance,
  CreditLog,
  CreditLogPage,
  Log,
  LogPage,
  ListConnectionsQuery,
  GetConnectionQuery,
  CreateConnectionBody,
  CreateAuthLinkBody,
  ListLogsQuery,
  ListCreditLogsQuery,
  IterateLogsQuery,
  IterateCreditLogsQuery,
  AgentTurn,
  AgentStep,
  AgentConversation,
  AgentConversationSummary,
  ListConversationsQuery,
  StartConversationBody,
  ShareConversationBody,
  SendMessageBody,
} from "./client.js";
export { PatchbayError, type PatchbayErrorCode } from "./errors.js";
export { retryAfterMs, type RetryOptions, type TransportOptions } from "./transport.js";
export {
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEvent,
  type WebhookEventType,
  type VerifyWebhookOptions,
} from "./webhooks.js";
export type { paths, webhooks, components, operations } from "./generated/openapi.js";
