import { logger } from "@/lib/observability/logger";
import { redactString } from "@/lib/observability/redact";

export type RequestLogFields = {
  method: string;
  /** The path with every route parameter replaced by its name: a value sent in the wrong place is never logged. */
  path: string;
  status: number;
  startedAt: number;
  teamId?: string | null;
  principal?: string | null;
};

/** One line per request (`msg: "request"`). Query values are left out: only the parameter names are kept. */
export function logRequest(f: RequestLogFields & { query?: URLSearchParams }) {
  logger.info("request", {
    method: f.method,
    path: f.path,
    ...(f.query &&
      f.query.size > 0 && { query_keys: [...new Set(f.query.keys())].map((k) => redactString(k.slice(0, 64))) }),
    status: f.status,
    duration_ms: Math.round((performance.now() - f.startedAt) * 100) / 100,
    team_id: f.teamId ?? null,
    principal: f.principal ?? null,
  });
}

/** `/v1/connections/conn_x` with `{connection_id: "conn_x"}` → `/v1/connections/[connection_id]`. */
export function templatePath(pathname: string, params: Record<string, unknown>): string {
  let segments = pathname.split("/");
  for (const [name, value] of Object.entries(params)) {
    const values = (Array.isArray(value) ? value : [value]).map(String);
    if (Array.isArray(value)) {
      segments = segments.map((s) => (values.includes(safeDecode(s)) ? `[...${name}]` : s));
      continue;
    }
    segments = segments.map((s) => (safeDecode(s) === values[0] ? `[${name}]` : s));
  }
  return redactString(segments.join("/").replace(/(\/\[\.\.\.\w+\])+/g, (m) => m.slice(0, m.indexOf("]", 1) + 1)));
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
