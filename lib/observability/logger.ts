import { redact } from "@/lib/observability/redact";
import { currentContext } from "@/lib/observability/request-context";

// The one logger of the server: one JSON object a line, stdout for info and stderr for
// warnings and errors, every field passed through `redact` and stamped with the current
// request's id when there is one.

type Level = "info" | "warn" | "error";

// Info lines (one per request) are written once per turn of the event loop: a busy server
// answers many requests a turn, and a write to a pipe is a system call of its own. Warnings
// and errors go out at once, and whatever is pending is written before the process exits.
// One buffer per process, however many bundles hold a copy of this module.
const out = ((globalThis as { __patchbayLogBuffer?: { pending: string } }).__patchbayLogBuffer ??= (() => {
  const buffer = { pending: "" };
  process.on("exit", () => flush(buffer));
  return buffer;
})());

function flush(buffer: { pending: string }) {
  if (!buffer.pending) return;
  const lines = buffer.pending;
  buffer.pending = "";
  process.stdout.write(lines);
}

function write(level: Level, msg: string, fields: Record<string, unknown>) {
  const requestId = currentContext().requestId;
  const line = `${JSON.stringify({ time: new Date().toISOString(), level, msg, ...(requestId && { request_id: requestId }), ...(redact(fields) as object) })}\n`;
  if (level !== "info") {
    process.stderr.write(line);
    return;
  }
  if (!out.pending) setImmediate(flush, out);
  out.pending += line;
}

export const logger = {
  info: (msg: string, fields: Record<string, unknown> = {}) => write("info", msg, fields),
  warn: (msg: string, fields: Record<string, unknown> = {}) => write("warn", msg, fields),
  error: (msg: string, fields: Record<string, unknown> = {}) => write("error", msg, fields),
};
