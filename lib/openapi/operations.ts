import { z } from "zod";
import {
  ConnectionSchema,
  ConnectionTypeSchema,
  createConnectionBodySchema,
  getConnectionQuerySchema,
  listConnectionsQuerySchema,
} from "@/lib/schemas/connections";
import { AuthLinkSchema, AuthLinkStatusSchema, createAuthLinkBodySchema } from "@/lib/schemas/auth-links";
import { LogNotFoundSchema, LogPageSchema, LogSchema, listLogsQuerySchema } from "@/lib/schemas/logs";
import { CreditBalanceSchema, CreditLogPageSchema, listCreditLogsQuerySchema } from "@/lib/schemas/credits";
import {
  AgentConversationSchema,
  AgentConversationSummarySchema,
  AgentTurnResultSchema,
  createConversationBodySchema,
  listConversationsQuerySchema,
  patchConversationBodySchema,
  postMessageBodySchema,
} from "@/lib/schemas/agents";
import { StartedWorkflowRunSchema, WorkflowRunStatusSchema, startWorkflowRunBodySchema } from "@/lib/schemas/workflows";
import { USAGE_MAX_DAYS, UsagePageSchema, usageQuerySchema } from "@/lib/schemas/usage";

/** Every /v1 operation, described by the same zod schemas the handlers parse with. */
export type Operation = {
  method: "get" | "post" | "patch" | "delete";
  path: string;
  tag: string;
  summary: string;
  description?: string;
  pathParams?: Record<string, string>;
  query?: z.ZodObject;
  /** Request headers the operation reads (beside Authorization), each optional: name → what it does. */
  headers?: Record<string, { description: string; maxLength?: number }>;
  body?: z.ZodType;
  /** The body may be left out altogether (an empty POST), not only sent with optional fields. */
  bodyOptional?: true;
  response: z.ZodType;
  responseDescription?: string;
  /** The success status, when not 200. */
  status?: 201;
  /** With `Accept: text/event-stream` it may answer with a stream of Server-Sent Events, described here. */
  eventStream?: string;
  /**
   * The statuses particular to this operation, with what they mean here (and their body's schema
   * when it is more than `Error`). 400, 401, 429, 500 and 503 can come from any operation: the
   * document builder adds them (lib/openapi/build-document.ts), with a 400 text when none is given here.
   */
  errors: Partial<Record<400 | 403 | 404 | 409 | 413 | 501 | 502, string | { description: string; schema: z.ZodType }>>;
};

const tooLarge = { 413: "The body is larger than 1 MB (1,048,576 bytes); nothing of it was used." } as const;
const noParams = "An unknown query parameter, or a path parameter holding a NUL character.";

export const operations: Operation[] = [
  {
    method: "get",
    path: "/v1/connections",
    tag: "Connections",
    summary: "List connections",
    description:
      "Shared team connections plus private connections owned by the API key's user. Timestamps in milliseconds.",
    query: listConnectionsQuerySchema,
    response: z.array(ConnectionSchema),
    errors: { 400: "An invalid or unknown query parameter." },
  },
  {
    method: "post",
    path: "/v1/connections",
    tag: "Connections",
    summary: "Create a connection from credentials",
    description:
      "Verifies the credentials with the provider before anything is stored. Rotation: white-label types are keyed on type and name, team-messaging types on workspace and app, storefront types on store; API-key types always create a new connection. The response's timestamps are Unix seconds.",
    body: createConnectionBodySchema,
    response: ConnectionSchema,
    errors: {
      400: "The body is not valid JSON or not the schema, the type cannot be created from credentials, a credential field is missing or unrecognised, or the provider rejected the credentials (detail carries the provider's reason).",
      403: "The type is white-label capable and the team is not on the Team plan.",
      ...tooLarge,
      501: "The type has no credential check on this server, so it cannot be created from credentials.",
      502: "The provider could not be reached or answered nonsense; nothing was stored.",
    },
  },
  {
    method: "get",
    path: "/v1/connections/types",
    tag: "Connections",
    summary: "List connection types",
    description: "Only the types that can be connected on this server: each has at least one auth method.",
    response: z.array(ConnectionTypeSchema),
    errors: { 400: noParams },
  },
  {
    method: "get",
    path: "/v1/connections/{connection_id}",
    tag: "Connections",
    summary: "Get a connection (always a list)",
    description: "ID lookup returns one item; external-ID lookup may return several.",
    pathParams: { connection_id: "Connection ID, or an external ID when lookup_by is external_id." },
    query: getConnectionQuerySchema,
    response: z.array(ConnectionSchema),
    errors: {
      400: "An invalid or unknown query parameter, or a NUL in the path.",
      404: "Nothing matches in the caller's team.",
    },
  },
  {
    method: "delete",
    path: "/v1/connections/{connection_id}",
    tag: "Connections",
    summary: "Delete a connection",
    description: "Deactivates the team's active workflows that use the connection. Returns the deleted connection.",
    pathParams: { connection_id: "Public connection ID only." },
    response: ConnectionSchema,
    errors: {
      400: noParams,
      404: "The connection does not exist or does not belong to the team (including other users' private connections).",
    },
  },
  {
    method: "post",
    path: "/v1/connections/auth-link",
    tag: "Auth links",
    summary: "Create a shareable OAuth auth link",
    description:
      "The link expires 24 hours after creation or once a connection is created from it. After OAuth, the browser is redirected to redirect_url with `status=success`, `connection_type`, `connection_id` and `external_id` (when given) appended; on failure (the link stays usable until it expires) with `status=error`, `error` and `error_description`, plus `connection_type` and `external_id` (when given). `error` is one of `access_denied` (the user declined at the provider), `provider_error` (the provider returned an error, or its token or identity call failed; the description carries its reason), `link_expired`, `link_used` (the link already created its connection) and `invalid_request`. A name already on the URL gets the appended one prefixed with `service_`; read `service_status` when present, otherwise `status`. Without a redirect_url the browser lands on Patchbay's own result page. Register `{base_url}/oauth/callback` as the redirect URI of each provider's OAuth app.",
    body: createAuthLinkBodySchema,
    response: AuthLinkSchema,
    errors: {
      400: "Invalid request: the body is not valid JSON or not the schema, an unknown type, a type that does not connect through OAuth here, or a redirect_url that is not https.",
      ...tooLarge,
    },
  },
  {
    method: "get",
    path: "/v1/connections/auth-links/{auth_link_id}/status",
    tag: "Auth links",
    summary: "Get an auth link's status",
    pathParams: { auth_link_id: "The id from link creation." },
    response: AuthLinkStatusSchema,
    errors: { 400: noParams, 404: "Auth link not found in the caller's team." },
  },
  {
    method: "get",
    path: "/v1/credits",
    tag: "Credits",
    summary: "Get the credit balance",
    response: CreditBalanceSchema,
    errors: { 400: noParams, 404: "Team not found." },
  },
  {
    method: "get",
    path: "/v1/credits/logs",
    tag: "Credits",
    summary: "List ledger entries, newest first",
    description: "The full history; the ledger is not truncated by plan.",
    query: listCreditLogsQuerySchema,
    response: CreditLogPageSchema,
    errors: { 400: "An invalid cursor (or one made for other filters), or an invalid or unknown query parameter." },
  },
  {
    method: "get",
    path: "/v1/logs",
    tag: "Logs",
    summary: "List operation logs, newest first",
    description: "Only logs inside the plan's history window (free 1 day, pro 7, team 30 by default).",
    query: listLogsQuerySchema,
    response: LogPageSchema,
    errors: { 400: "An invalid cursor (or one made for other filters), or an invalid or unknown query parameter." },
  },
  {
    method: "get",
    path: "/v1/logs/{log_id}",
    tag: "Logs",
    summary: "Get one operation log",
    pathParams: { log_id: "Log ID." },
    response: LogSchema,
    errors: {
      400: noParams,
      404: {
        description:
          "No log with that ID in the team, or one older than the plan's history window (detail is then {message, history_days}).",
        schema: LogNotFoundSchema,
      },
    },
  },
  ...agentOperations(),
  ...workflowOperations(),
  ...usageOperations(),
];

function agentOperations(): Operation[] {
  const tag = "Agent (extension)";
  const stream =
    "Server-Sent Events while the turn runs: `text` ({delta}) as the model writes, `step` (an AgentStep) as an operation runs or is filed for approval, then `turn` (this operation's JSON body) or `error` ({detail}). Errors before the turn starts are JSON.";
  const conversation = "Conversation ID (`conv_…`).";
  const unseen = "No such conversation in the team, or another member's that is not shared.";
  return [
    {
      method: "get",
      path: "/v1/agent/conversations",
      tag,
      summary: "List conversations",
      description: "The caller's conversations and the team's shared ones, most recent first (at most 200).",
      query: listConversationsQuerySchema,
      response: z.object({ data: z.array(AgentConversationSummarySchema) }),
      errors: { 400: "An invalid or unknown query parameter." },
    },
    {
      method: "post",
      path: "/v1/agent/conversations",
      tag,
      summary: "Start a conversation",
      description:
        "Creates a conversation on one of the team's model connections and runs its first turn: the agent finds and runs operations of the catalogue on the conversation's connections; a write that needs approval is filed (an approval request with conversation_id) and the turn answers `waiting_approval`; once a member decides, the server continues the turn. Answers when the turn is completed, waiting_approval, failed or refused (no credits: no model call, credits 0). Each turn that is not refused is one ledger entry (service agent): 1 + the credits of the operations it ran.",
      body: createConversationBodySchema,
      status: 201,
      response: AgentTurnResultSchema,
      eventStream: stream,
      errors: {
        400: "The body is not valid JSON or not the schema, or model_connection_id is not a model type (openai, anthropic, sandbox_model).",
        403: "A connection_ids entry is not a connection the caller can use (another team's, a teammate's private one, or none); nothing was created.",
        404: "model_connection_id is not a connection the caller can see.",
        ...tooLarge,
      },
    },
    {
      method: "get",
      path: "/v1/agent/conversations/{conversation_id}",
      tag,
      summary: "Get a conversation",
      pathParams: { conversation_id: conversation },
      response: AgentConversationSchema,
      errors: { 400: noParams, 404: unseen },
    },
    {
      method: "patch",
      path: "/v1/agent/conversations/{conversation_id}",
      tag,
      summary: "Share a conversation with the team, or stop sharing it",
      pathParams: { conversation_id: conversation },
      body: patchConversationBodySchema,
      response: AgentConversationSchema,
      errors: { 403: "Only the member who started it may change this.", 404: unseen, ...tooLarge },
    },
    {
      method: "post",
      path: "/v1/agent/conversations/{conversation_id}/messages",
      tag,
      summary: "Send a message",
      description:
        "Runs the next turn of the conversation: the model is sent the conversation's earlier messages, tool calls and results. Answers like starting a conversation.",
      pathParams: { conversation_id: conversation },
      body: postMessageBodySchema,
      response: AgentTurnResultSchema,
      eventStream: stream,
      errors: {
        404: unseen,
        409: "The conversation's last turn is still running or waits for an approval.",
        ...tooLarge,
      },
    },
  ];
}

function workflowOperations(): Operation[] {
  const tag = "Workflows (extension)";
  const workflow = "Workflow ID (`wf_…`).";
  return [
    {
      method: "post",
      path: "/v1/workflows/{workflow_id}/runs",
      tag,
      summary: "Start a workflow run",
      description:
        "Queues a run of an active workflow of the team (the API trigger), as the API key's user and under the same rules as Run now in the dashboard; any instance's runner starts it within seconds. The body is optional: `input` is what the run's nodes read as `{{trigger.input…}}` (`{}` when left out). Follow the run with GET /v1/workflows/{workflow_id}/runs/{run_id}. With an `Idempotency-Key`, the same key for the same workflow within 24 hours answers the same 201 and body (the first run's id) and starts nothing, so a request retried after a lost answer runs the workflow once.",
      pathParams: { workflow_id: workflow },
      headers: {
        "Idempotency-Key": {
          description:
            "Any string of at most 255 characters you choose per intended run (a UUID, or your own order id): repeating the request with it within 24 hours answers the first run and starts nothing.",
          maxLength: 255,
        },
      },
      body: startWorkflowRunBodySchema,
      bodyOptional: true,
      status: 201,
      response: StartedWorkflowRunSchema,
      responseDescription: "Queued (or, for a repeated Idempotency-Key, the run that key already started).",
      errors: {
        400: "The body is not valid JSON, not an object, or has a field other than input (input must be an object); an unknown query parameter; an Idempotency-Key longer than 255 characters.",
        403: "The consent rules refuse this run to the key's user: a node uses another member's private connection, or the workflow has write nodes no owner activated and the user is not an owner. Nothing was started or charged.",
        404: "No such workflow in the API key's team.",
        409: "The workflow is inactive (activate it to start runs this way), or a node's connection was deleted or needs re-authorization. Nothing was started or charged.",
        ...tooLarge,
      },
    },
    {
      method: "get",
      path: "/v1/workflows/{workflow_id}/runs/{run_id}",
      tag,
      summary: "Get a workflow run",
      description:
        "A run's progress, whatever started it (by hand, schedule, webhook, event, API or replay). `status` is `queued` or `running` while it goes, `waiting_approval` while an approval step waits for a person, then `success`, `error`, `stopped` or `refused`; `completed_at` and `credits` are null until it ends. `version` is the workflow version it executes; `replay_of` the run it replays. Times in Unix seconds. Its logs: GET /v1/logs?source_run_id={run_id}.",
      pathParams: { workflow_id: workflow, run_id: "Run ID (`run_…`), as the start answered it." },
      response: WorkflowRunStatusSchema,
      errors: {
        400: noParams,
        404: "No such workflow in the API key's team, or the workflow has no run with that ID.",
      },
    },
  ];
}

function usageOperations(): Operation[] {
  return [
    {
      method: "get",
      path: "/v1/usage",
      tag: "Usage (extension)",
      summary: "Usage per client or per connection",
      description:
        "Credits, operations and errors in `[from, to)` grouped by client (`group_by=external_id`: the external_id of the connections, as the auth link set it) or by connection (`group_by=connection_id`), over the connections the API key's user sees: the team's shared ones and that member's private ones. `credits` are summed from what each charge was attributed to when it was made: an MCP call's or an approved write's credits to its connection, a workflow run's split by its nodes (each loop iteration to its own connection, the run's own credit to its first node's connection), an agent turn's to its first operation's connection. The ledger's `created_at` decides the range, so for a key that sees every charged connection the groups' credits add up to the ledger's `credits_used` in the range. A portion attributed to a connection the key cannot see (a teammate's private one, a deleted one) is left out; `key` null groups what has no external_id (or no connection). `operations` counts the logs that ran on the group's connections in the range, `errors` those with status error. Groups are ordered by key (null first); times in Unix seconds.",
      query: usageQuerySchema,
      response: UsagePageSchema,
      errors: {
        400: `group_by is not external_id or connection_id, from or to is missing or not Unix seconds, from is after to, the range is longer than ${USAGE_MAX_DAYS} days, an invalid cursor (or one made for another group_by, from or to), or an unknown query parameter.`,
      },
    },
  ];
}
