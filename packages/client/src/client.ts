import createClient, { type Client } from "openapi-fetch";
import type { components, operations, paths } from "./generated/openapi.js";
import { PatchbayError } from "./errors.js";
import { retryingFetch, sleep, type TransportOptions } from "./transport.js";

type Schemas = components["schemas"];
export type Connection = Schemas["Connection"];
export type ConnectionType = Schemas["ConnectionType"];
export type AuthLink = Schemas["AuthLink"];
export type AuthLinkStatus = Schemas["AuthLinkStatus"];
export type CreditBalance = Schemas["CreditBalance"];
export type CreditLog = Schemas["CreditLog"];
export type CreditLogPage = Schemas["CreditLogPage"];
export type Log = Schemas["Log"];
export type LogPage = Schemas["LogPage"];
export type AgentTurn = Schemas["AgentTurn"];
export type AgentStep = Schemas["AgentStep"];
export type AgentConversation = Schemas["AgentConversation"];
export type AgentConversationSummary = Schemas["AgentConversationSummary"];
export type WorkflowRun = Schemas["WorkflowRun"];
export type StartedWorkflowRun = Schemas["StartedWorkflowRun"];
export type UsageRow = Schemas["UsageRow"];
export type UsagePage = Schemas["UsagePage"];

type QueryOf<O extends keyof operations> = NonNullable<operations[O]["parameters"]["query"]>;
type BodyOf<O extends keyof operations> = NonNullable<operations[O]["requestBody"]>["content"]["application/json"];

export type ListConnectionsQuery = QueryOf<"getV1Connections">;
export type GetConnectionQuery = QueryOf<"getV1ConnectionsByConnectionId">;
export type CreateConnectionBody = BodyOf<"postV1Connections">;
export type CreateAuthLinkBody = BodyOf<"postV1ConnectionsAuthLink">;
export type ListLogsQuery = QueryOf<"getV1Logs">;
export type ListCreditLogsQuery = QueryOf<"getV1CreditsLogs">;
export type ListConversationsQuery = QueryOf<"getV1AgentConversations">;
export type StartConversationBody = BodyOf<"postV1AgentConversations">;
export type ShareConversationBody = BodyOf<"patchV1AgentConversationsByConversationId">;
export type SendMessageBody = BodyOf<"postV1AgentConversationsByConversationIdMessages">;
export type StartWorkflowRunBody = BodyOf<"postV1WorkflowsByWorkflowIdRuns">;
export type ListUsageQuery = QueryOf<"getV1Usage">;
/** The filters of a walk through every page: the cursor is the iterator's. */
export type IterateLogsQuery = Omit<ListLogsQuery, "cursor">;
export type IterateCreditLogsQuery = Omit<ListCreditLogsQuery, "cursor">;
export type IterateUsageQuery = Omit<ListUsageQuery, "cursor">;

/** Per call: cancel it, or give it its own timeout. */
export type CallOptions = { signal?: AbortSignal; timeoutMs?: number };

export type RunWorkflowOptions = CallOptions & {
  /**
   * Sent as `Idempotency-Key` (at most 255 characters): the same key for the same workflow within
   * 24 hours answers the first run and starts nothing, so a start that failed without an answer
   * (a timeout, a dropped connection) can be sent again with it safely.
   */
  idempotencyKey?: string;
};

export type WaitForRunOptions = {
  /** How long to wait in all, in ms (default 300 000); then a PatchbayError with code `timeout`. */
  timeoutMs?: number;
  /** Stops waiting: the call rejects with the signal's reason. */
  signal?: AbortSignal;
};

/** A run in one of these goes on by itself: waitForRun polls until it is in none of them. */
const RUN_IN_PROGRESS: readonly string[] = ["queued", "running"];
const FIRST_POLL_MS = 250;
const MAX_POLL_MS = 5_000;

export type PatchbayOptions = TransportOptions & {
  /** The server's base URL, e.g. `https://patchbay.example.com`. */
  baseUrl: string;
  /** A team API key (`pbk_…`), sent as `Authorization: Bearer`. */
  apiKey: string;
  /** Extra headers for every request. */
  headers?: Record<string, string>;
};

/**
 * The Patchbay /v1 API. Every method resolves to the response body, typed from the API's
 * OpenAPI document, or throws a PatchbayError carrying the server's status and `detail`.
 * `api` is the underlying openapi-fetch client, for the request and response objects themselves.
 *
 *   const patchbay = new Patchbay({ baseUrl: "https://patchbay.example.com", apiKey: process.env.PATCHBAY_API_KEY! });
 *   for await (const log of patchbay.logs.iterate({ status: "error" })) console.log(log.id);
 */
export class Patchbay {
  readonly api: Client<paths>;
  readonly #options: PatchbayOptions;

  constructor(options: PatchbayOptions) {
    if (!options?.baseUrl) throw new TypeError("Patchbay: baseUrl is required, e.g. https://patchbay.example.com");
    if (!options.apiKey) throw new TypeError("Patchbay: apiKey is required (a team API key, pbk_…)");
    this.#options = options;
    this.api = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      headers: { ...options.headers, authorization: `Bearer ${options.apiKey}` },
      fetch: retryingFetch(options),
    });
  }

  /** The same client with other transport settings (a per-call timeout). */
  #for(call: CallOptions | undefined): Client<paths> {
    return call?.timeoutMs === undefined ? this.api : new Patchbay({ ...this.#options, timeoutMs: call.timeoutMs }).api;
  }

  readonly connections = {
    /** Shared team connections plus the API key's user's private ones. */
    list: (query: ListConnectionsQuery = {}, call?: CallOptions) =>
      unwrap("GET", this.#for(call).GET("/v1/connections", { params: { query }, signal: call?.signal })),
    /** Verified with the provider before anything is stored. */
    create: (body: CreateConnectionBody, call?: CallOptions) =>
      unwrap("POST", this.#for(call).POST("/v1/connections", { body, signal: call?.signal })),
    /** The types that can be connected on this server, with their credential fields. */
    types: (call?: CallOptions) =>
      unwrap("GET", this.#for(call).GET("/v1/connections/types", { signal: call?.signal })),
    /** Always a list: one item by id, possibly several by external id. */
    get: (connectionId: string, query: GetConnectionQuery = {}, call?: CallOptions) =>
      unwrap(
        "GET",
        this.#for(call).GET("/v1/connections/{connection_id}", {
          params: { path: { connection_id: connectionId }, query },
          signal: call?.signal,
        }),
      ),
    /** Deactivates the team's active workflows that use it; returns the deleted connection. */
    delete: (connectionId: string, call?: CallOptions) =>
      unwrap(
        "DELETE",
        this.#for(call).DELETE("/v1/connections/{connection_id}", {
          params: { path: { connection_id: connectionId } },
          signal: call?.signal,
        }),
      ),
  };

  /** The agent (an extension, CONTRACT §11): conversations on one of the team's model connections. */
  readonly agent = {
    /** The key's user's conversations and the team's shared ones, most recent first. */
    list: (query: ListConversationsQuery = {}, call?: CallOptions) =>
      unwrap("GET", this.#for(call).GET("/v1/agent/conversations", { params: { query }, signal: call?.signal })),
    /** Starts a conversation and answers once its first turn is completed, waiting_approval, failed or refused. */
    start: (body: StartConversationBody, call?: CallOptions) =>
      // JSON, as the client asks: the document's other answer (an event stream) is for Accept: text/event-stream.
      unwrap("POST", this.#for(call).POST("/v1/agent/conversations", { body, signal: call?.signal })) as Promise<
        Schemas["AgentTurnResult"]
      >,
    /** A conversation with every turn. */
    get: (conversationId: string, call?: CallOptions) =>
      unwrap(
        "GET",
        this.#for(call).GET("/v1/agent/conversations/{conversation_id}", {
          params: { path: { conversation_id: conversationId } },
          signal: call?.signal,
        }),
      ),
    /** Shares it with the team (or stops): its creator only. */
    share: (conversationId: string, body: ShareConversationBody, call?: CallOptions) =>
      unwrap(
        "PATCH",
        this.#for(call).PATCH("/v1/agent/conversations/{conversation_id}", {
          params: { path: { conversation_id: conversationId } },
          body,
          signal: call?.signal,
        }),
      ),
    /** The next turn; a 409 while the last one runs or waits for an approval. */
    send: (conversationId: string, body: SendMessageBody, call?: CallOptions) =>
      unwrap(
        "POST",
        this.#for(call).POST("/v1/agent/conversations/{conversation_id}/messages", {
          params: { path: { conversation_id: conversationId } },
          body,
          signal: call?.signal,
        }),
      ) as Promise<Schemas["AgentTurnResult"]>,
  };

  /** Workflow runs (an extension, CONTRACT §13): start one through the API trigger, follow any. */
  readonly workflows = {
    /**
     * Queues a run of an active workflow as the key's user; `input` is `{{trigger.input…}}` in its
     * nodes. Resolves to `{run_id, status: "queued"}`; follow it with `getRun` or `waitForRun`.
     */
    run: (workflowId: string, body?: StartWorkflowRunBody, options?: RunWorkflowOptions) =>
      unwrap(
        "POST",
        this.#for(options).POST("/v1/workflows/{workflow_id}/runs", {
          params: {
            path: { workflow_id: workflowId },
            ...(options?.idempotencyKey !== undefined && { header: { "Idempotency-Key": options.idempotencyKey } }),
          },
          body,
          signal: options?.signal,
        }),
      ),
    /** A run's status, trigger, version, times and credits, whatever started it. */
    getRun: (workflowId: string, runId: string, call?: CallOptions) =>
      unwrap(
        "GET",
        this.#for(call).GET("/v1/workflows/{workflow_id}/runs/{run_id}", {
          params: { path: { workflow_id: workflowId, run_id: runId } },
          signal: call?.signal,
        }),
      ),
    /**
     * Polls `getRun` (after 250 ms, then twice as long each time, at most 5 s apart) until the run
     * is no longer queued or running: it ended (`success`, `error`, `stopped`, `refused`) or waits
     * for a person's approval (`waiting_approval`), which can take hours, so it returns then too.
     */
    waitForRun: async (workflowId: string, runId: string, options: WaitForRunOptions = {}): Promise<WorkflowRun> => {
      const timeoutMs = options.timeoutMs ?? 300_000;
      const deadline = Date.now() + timeoutMs;
      const signal = options.signal ?? new AbortController().signal;
      for (let delay = FIRST_POLL_MS; ; delay = Math.min(delay * 2, MAX_POLL_MS)) {
        const run = await this.workflows.getRun(workflowId, runId, { signal: options.signal });
        if (!RUN_IN_PROGRESS.includes(run.status)) return run;
        const left = deadline - Date.now();
        if (left <= 0)
          throw new PatchbayError({
            status: 0,
            code: "timeout",
            detail: `Run ${runId} is still ${run.status} after ${timeoutMs} ms.`,
            method: "GET",
            url: `${this.#options.baseUrl.replace(/\/+$/, "")}/v1/workflows/${encodeURIComponent(workflowId)}/runs/${encodeURIComponent(runId)}`,
          });
        await sleep(Math.min(delay, left), signal);
      }
    },
  };

  readonly authLinks = {
    /** A link to send to your client; it connects one account, within 24 hours. */
    create: (body: CreateAuthLinkBody, call?: CallOptions) =>
      unwrap("POST", this.#for(call).POST("/v1/connections/auth-link", { body, signal: call?.signal })),
    status: (authLinkId: string, call?: CallOptions) =>
      unwrap(
        "GET",
        this.#for(call).GET("/v1/connections/auth-links/{auth_link_id}/status", {
          params: { path: { auth_link_id: authLinkId } },
          signal: call?.signal,
        }),
      ),
  };

  readonly credits = {
    /** The current billing period's balance. */
    get: (call?: CallOptions) => unwrap("GET", this.#for(call).GET("/v1/credits", { signal: call?.signal })),
  };

  readonly ledger = {
    /** One page of ledger entries, newest first. */
    list: (query: ListCreditLogsQuery = {}, call?: CallOptions) =>
      unwrap("GET", this.#for(call).GET("/v1/credits/logs", { params: { query }, signal: call?.signal })),
    /** Every entry matching `query`, newest first, page after page. */
    iterate: (query: IterateCreditLogsQuery = {}, call?: CallOptions): AsyncGenerator<CreditLog, void, undefined> =>
      walk(query, (q) => this.ledger.list(q, call)),
  };

  /**
   * Usage per client or per connection (an extension, CONTRACT §12): credits, operations and
   * errors in `[from, to)` (Unix seconds, at most 400 days), over the connections the key's user sees.
   */
  readonly usage = {
    /** One page of groups, ordered by key (the null key, what has no external_id or connection, first). */
    list: (query: ListUsageQuery, call?: CallOptions) =>
      unwrap("GET", this.#for(call).GET("/v1/usage", { params: { query }, signal: call?.signal })),
    /** Every group of `query`, page after page. */
    iterate: (query: IterateUsageQuery, call?: CallOptions): AsyncGenerator<UsageRow, void, undefined> =>
      walk(query, (q) => this.usage.list(q, call)),
  };

  readonly logs = {
    /** One page of operation logs inside the plan's history window, newest first. */
    list: (query: ListLogsQuery = {}, call?: CallOptions) =>
      unwrap("GET", this.#for(call).GET("/v1/logs", { params: { query }, signal: call?.signal })),
    /** Every log matching `query`, newest first, page after page. */
    iterate: (query: IterateLogsQuery = {}, call?: CallOptions): AsyncGenerator<Log, void, undefined> =>
      walk(query, (q) => this.logs.list(q, call)),
    /** A log older than the history window throws a 404 PatchbayError with `historyDays`. */
    get: (logId: string, call?: CallOptions) =>
      unwrap(
        "GET",
        this.#for(call).GET("/v1/logs/{log_id}", { params: { path: { log_id: logId } }, signal: call?.signal }),
      ),
  };
}

type Result<T> = Promise<{ data?: T; error?: unknown; response: Response }>;

async function unwrap<T>(method: string, result: Result<T>): Promise<T> {
  const { data, error, response } = await result;
  if (response.ok) {
    if (data === undefined)
      throw new PatchbayError({
        status: response.status,
        code: "invalid_response",
        detail: "The response has no JSON body.",
        method,
        url: response.url,
      });
    return data;
  }
  throw new PatchbayError({
    status: response.status,
    code: "http_error",
    detail: (error as { detail?: unknown } | undefined)?.detail ?? error ?? response.statusText,
    method,
    url: response.url,
    requestId: response.headers.get("x-request-id"),
    retryAfter: response.headers.has("retry-after")
      ? Number(response.headers.get("retry-after")) || undefined
      : undefined,
  });
}

/**
 * Pages through a cursor list with the filters copied once, so no page can be asked for with
 * other filters than the first (the "cursor made for other filters" 400).
 */
async function* walk<Q extends object, T>(
  query: Q,
  list: (q: Q & { cursor?: string }) => Promise<{ data: T[]; has_more: boolean; next_cursor: string | null }>,
): AsyncGenerator<T, void, undefined> {
  const filters = Object.freeze({ ...query });
  let cursor: string | undefined;
  for (;;) {
    const page = await list({ ...filters, ...(cursor === undefined ? {} : { cursor }) });
    yield* page.data;
    if (!page.has_more) return;
    if (!page.next_cursor) throw new TypeError("The server said has_more without a next_cursor.");
    cursor = page.next_cursor;
  }
}
