import { ZodError } from "zod";
import { logger } from "@/lib/observability/logger";
import { currentContext } from "@/lib/observability/request-context";

/** The one error type handlers throw; withAuth turns it into `{detail}` with its status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === "string" ? detail : JSON.stringify(detail));
  }
}

export const badRequest = (detail: unknown) => new ApiError(400, detail);
export const unauthorized = (detail: string) => new ApiError(401, detail, { "WWW-Authenticate": 'Bearer realm="patchbay"' });
export const forbidden = (detail: string) => new ApiError(403, detail);
export const notFound = (detail: unknown) => new ApiError(404, detail);

/** "limit: Too big: expected number to be <=100; cursor: …" — every issue, with its path. */
export function describeZodError(error: ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

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
  if (error instanceof ApiError) return json({ detail: error.detail }, { status: error.status, headers: error.headers });
  if (error instanceof ZodError) return json({ detail: describeZodError(error) }, { status: 400 });
  if (isDatabaseUnavailable(error)) {
    return json({ detail: "The database is unavailable; retry shortly." }, { status: 503, headers: { "Retry-After": "2" } });
  }
  logger.error("unhandled error", { error });
  // The request id lets whoever reports the error point at its log line.
  const requestId = currentContext().requestId;
  return json({ detail: `Internal error; it has been logged${requestId ? ` with request id ${requestId}` : ""}.` }, { status: 500 });
}

function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = e?.code ?? e?.cause?.code;
  return (
    ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "57P01", "57P03", "SQLITE_BUSY", "P1001", "P1008", "P1017", "P2024"].includes(code ?? "") ||
    e?.name === "PrismaClientInitializationError" ||
    /Can't reach database|Connection terminated|connection timeout|database is locked|not queryable|terminating connection/i.test(e?.message ?? "")
  );
}
