import { PatchbayError } from "./errors.js";

export type RetryOptions = {
  /** Retries after the first attempt; 0 turns retrying off. Default 2. */
  maxRetries?: number;
  /**
   * The longest wait the client accepts between attempts, in ms (default 30 000): a longer
   * `Retry-After` is not waited out, the error is thrown at once.
   */
  maxRetryDelayMs?: number;
};

export type TransportOptions = RetryOptions & {
  /** Per attempt, in ms; default 30 000. 0 for none. */
  timeoutMs?: number;
  /** Called before each retry: log it, count it. */
  onRetry?: (info: { attempt: number; delayMs: number; status: number; method: string; url: string }) => void;
  fetch?: typeof fetch;
};

const DEFAULTS = { maxRetries: 2, maxRetryDelayMs: 30_000, timeoutMs: 30_000 } as const;

/**
 * A fetch that retries what is safe to retry, honouring `Retry-After`:
 * - 429, for every method: the rate limit refused the request before anything was done;
 * - 503 (the database unavailable) and a connection that failed, for GET only: a POST or DELETE
 *   may have been committed just before the cut, and a second one is not the same request
 *   (API-key credentials posted twice are two connections), so those are thrown for the caller
 *   to decide.
 * Each attempt has its own timeout; the caller's signal aborts the whole call, waits included.
 */
export function retryingFetch(options: TransportOptions): (request: Request) => Promise<Response> {
  const maxRetries = options.maxRetries ?? DEFAULTS.maxRetries;
  const maxDelay = options.maxRetryDelayMs ?? DEFAULTS.maxRetryDelayMs;
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const fetchImpl = options.fetch ?? globalThis.fetch;

  return async (request: Request) => {
    const { method, url, signal } = request;
    // Read once: every attempt sends the same bytes.
    const body = method === "GET" || method === "HEAD" ? undefined : await request.arrayBuffer();
    for (let attempt = 0; ; attempt++) {
      signal.throwIfAborted();
      const timeoutError = () =>
        new PatchbayError({ status: 0, code: "timeout", detail: `No response within ${timeoutMs} ms.`, method, url });
      const attemptSignal = withTimeout(signal, timeoutMs, timeoutError);
      let response: Response;
      try {
        response = await fetchImpl(url, { method, headers: request.headers, body, signal: attemptSignal.signal });
      } catch (error) {
        attemptSignal.dispose();
        if (signal.aborted) throw signal.reason;
        const timedOut = attemptSignal.timedOut();
        const failure = timedOut
          ? timeoutError()
          : new PatchbayError({
              status: 0,
              code: "network_error",
              detail: `The request failed: ${(error as Error)?.message ?? error}.`,
              method,
              url,
              cause: error,
            });
        // A timed-out request may still be running on the server: only a read is repeated.
        const delay = method === "GET" ? backoff(attempt) : undefined;
        if (delay === undefined || attempt >= maxRetries) throw failure;
        options.onRetry?.({ attempt: attempt + 1, delayMs: delay, status: 0, method, url });
        await sleep(delay, signal);
        continue;
      }
      const retryable = response.status === 429 || (response.status === 503 && method === "GET");
      // The timeout stays armed while the caller reads the body.
      if (!retryable || attempt >= maxRetries) return response;
      attemptSignal.dispose();
      const delay = retryAfterMs(response.headers.get("retry-after")) ?? backoff(attempt);
      if (delay > maxDelay) return response;
      // Let the connection be reused: nobody reads this body.
      await response.body?.cancel().catch(() => {});
      options.onRetry?.({ attempt: attempt + 1, delayMs: delay, status: response.status, method, url });
      await sleep(delay, signal);
    }
  };
}

/**
 * The caller's signal plus this attempt's timeout, as one signal. Written out rather than with
 * AbortSignal.any/timeout, which not every edge runtime has. The timeout's reason is the
 * PatchbayError itself, so a body still being read when it fires rejects with it too.
 */
function withTimeout(signal: AbortSignal, timeoutMs: number, timeoutError: () => Error) {
  const controller = new AbortController();
  let timedOut = false;
  const abort = () => controller.abort(signal.reason);
  signal.addEventListener("abort", abort, { once: true });
  const timer =
    timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          signal.removeEventListener("abort", abort);
          controller.abort(timeoutError());
        }, timeoutMs)
      : undefined;
  // In Node, a pending timeout must not keep the process alive.
  (timer as { unref?: () => void } | undefined)?.unref?.();
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", abort);
    },
  };
}

/** `Retry-After` as seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** 0.5 s, 1 s, 2 s … with up to 25 % jitter, when the server said nothing. */
const backoff = (attempt: number) => Math.round(500 * 2 ** attempt * (1 + Math.random() * 0.25));

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the abort reason as fetch rejects with it (a DOMException, or whatever the caller passed to abort())
    if (signal.aborted) return reject(signal.reason);
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", aborted);
    };
    const aborted = () => {
      done();
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- as above: the signal's own reason
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    signal.addEventListener("abort", aborted, { once: true });
  });
}
