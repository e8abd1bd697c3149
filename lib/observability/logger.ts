import { redact } from "@/lib/observability/redact";
import { currentContext } from "@/lib/observability/request-context";

// The one logger of the server: one JSON object a line, stdout for info and stderr for
// warnings and errors, every field passed through `redact` and stamped with the current
// request's id when there is one.

type Level = "info" | "warn" | "error";

function write(level: Level, msg: string, fields: Record<string, unknown>) {
  const requestId = currentContext().requestId;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...(requestId && { request_id: requestId }), ...(redact(fields) as object) });
  (level === "info" ? process.stdout : process.stderr).write(`${line}\n`);
}

export const logger = {
  info: (msg: string, fields: Record<string, unknown> = {}) => write("info", msg, fields),
  warn: (msg: string, fields: Record<string, unknown> = {}) => write("warn", msg, fields),
  error: (msg: string, fields: Record<string, unknown> = {}) => write("error", msg, fields),
};
