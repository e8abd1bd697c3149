import { knownError } from "@/lib/errors/api-error";
import { logger } from "@/lib/observability/logger";
import { currentContext } from "@/lib/observability/request-context";

/** A response body that is JSON text already (a log page, whose stored JSON columns are spliced in unparsed). */
export class JsonText {
  constructor(readonly text: string) {}
}

/** The JSON text of a handler's result. */
export const jsonBody = (body: unknown) => (body instanceof JsonText ? body.text : JSON.stringify(body));

export function json(body: unknown, init: ResponseInit = {}): Response {
  return new Response(jsonBody(body), {
    ...init,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...init.headers },
  });
}

export function errorResponse(error: unknown): Response {
  const known = knownError(error);
  if (known) return json({ detail: known.detail }, { status: known.status, headers: known.headers });
  logger.error("unhandled error", { error });
  // The request id lets whoever reports the error point at its log line.
  const requestId = currentContext().requestId;
  return json(
    { detail: `Internal error; it has been logged${requestId ? ` with request id ${requestId}` : ""}.` },
    { status: 500 },
  );
}
