/** Why a call failed without an HTTP error status: no answer in time, or none at all. */
export type PatchbayErrorCode = "http_error" | "timeout" | "network_error" | "invalid_response";

/**
 * Every failed call throws this (a caller's own `AbortSignal` aside, which rejects with its
 * reason as fetch does). `status` is the HTTP status, 0 when no response arrived; `detail` is the
 * server's `{detail}` as sent: a string, or for a log older than the plan's history window
 * `{message, history_days}` (then also `historyDays`).
 */
export class PatchbayError extends Error {
  override readonly name = "PatchbayError";
  readonly status: number;
  readonly code: PatchbayErrorCode;
  readonly detail: unknown;
  /** The plan's history window in days, on the 404 of a log that has aged out of it. */
  readonly historyDays: number | undefined;
  /** The server's request id (`X-Request-Id`): quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** Seconds the server asked to wait (429, 503), when it said. */
  readonly retryAfter: number | undefined;
  readonly method: string;
  readonly url: string;

  constructor(init: {
    status: number;
    code: PatchbayErrorCode;
    detail: unknown;
    method: string;
    url: string;
    requestId?: string | null;
    retryAfter?: number;
    cause?: unknown;
  }) {
    super(
      `${init.method} ${new URL(init.url).pathname}: ${describe(init)}`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.method = init.method;
    this.url = init.url;
    this.requestId = init.requestId ?? undefined;
    this.retryAfter = init.retryAfter;
    const history = (init.detail as { history_days?: unknown } | null)?.history_days;
    this.historyDays = typeof history === "number" ? history : undefined;
  }
}

function describe(init: { status: number; detail: unknown }): string {
  const { detail } = init;
  const text =
    typeof detail === "string"
      ? detail
      : typeof (detail as { message?: unknown } | null)?.message === "string"
        ? (detail as { message: string }).message
        : JSON.stringify(detail);
  return init.status ? `${init.status} ${text}` : text;
}
