import { ZodError } from "zod";

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
export const unauthorized = (detail: string) =>
  new ApiError(401, detail, { "WWW-Authenticate": 'Bearer realm="patchbay"' });
export const forbidden = (detail: string) => new ApiError(403, detail);
export const notFound = (detail: unknown) => new ApiError(404, detail);

/** "limit: Too big: expected number to be <=100; cursor: …" — every issue, with its path. */
export function describeZodError(error: ZodError): string {
  return error.issues
    .map((issue) => {
      // A list's item by its index in brackets ("nodes[0].label"), as the checks after the schema
      // write it, so every problem of one body names its place the same way. A list given alone
      // (the CLI's --nodes) keeps its bare index ("0.id").
      const path = issue.path
        .map((k, i) => (typeof k === "number" && i > 0 ? `[${k}]` : `${i ? "." : ""}${String(k)}`))
        .join("");
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

/**
 * The errors that are the caller's or the moment's, not a bug, as the ApiError they stand for:
 * a database that cannot be reached (503), and a row that a concurrent request deleted between
 * this request's check and its write (Prisma's P2025 "record to update or delete not found",
 * 404; P2003 "foreign key constraint failed", 409). Their messages name no table or column.
 * Every edge that reports errors (the wrapper of routes, the CLI) reads them through this.
 */
export function knownError(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error instanceof ZodError) return badRequest(describeZodError(error));
  if (isDatabaseUnavailable(error))
    return new ApiError(503, "The database is unavailable; retry shortly.", { "Retry-After": "2" });
  const code = prismaCode(error);
  if (code === "P2025")
    return notFound("It was deleted meanwhile (by another request while this one ran); reload to see what is left.");
  if (code === "P2003") return new ApiError(409, "Something it refers to was deleted meanwhile; reload and try again.");
  return null;
}

/** A Prisma known-request error's code (P2xxx), read by shape: the two engines' clients are generated apart. */
function prismaCode(error: unknown): string | null {
  const e = error as { name?: string; code?: unknown };
  return e?.name === "PrismaClientKnownRequestError" && typeof e.code === "string" ? e.code : null;
}

function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = e?.code ?? e?.cause?.code;
  return (
    [
      "ECONNREFUSED",
      "ECONNRESET",
      "ETIMEDOUT",
      "57P01",
      "57P03",
      "SQLITE_BUSY",
      "P1001",
      "P1008",
      "P1017",
      "P2024",
    ].includes(code ?? "") ||
    e?.name === "PrismaClientInitializationError" ||
    /Can't reach database|Connection terminated|connection timeout|timeout exceeded when trying to connect|database is locked|not queryable|terminating connection/i.test(
      e?.message ?? "",
    )
  );
}
