// Bounded work per request (README "Limits"): how much one workflow, one node or one log body
// may hold, so no single request can exhaust the memory or the disk that every team shares.
// Read from the environment at each use, so a test server or an operator can change them;
// a missing, non-numeric or non-positive value means the default. Pure: no Node-only API, since
// the workflow editor imports the template module that reads one of them.

const KIB = 1024;
const MIB = 1024 * KIB;

function setting(name: string, fallback: number, ceiling = Number.MAX_SAFE_INTEGER): number {
  const raw = typeof process === "undefined" ? undefined : process.env?.[name];
  const v = Number(raw);
  return raw !== undefined && raw !== "" && Number.isFinite(v) && v >= 1 ? Math.min(Math.floor(v), ceiling) : fallback;
}

/** The most nodes a saved workflow may ever hold, whatever WORKFLOW_MAX_NODES says (the body schema's bound). */
export const NODES_CEILING = 1000;

/** Nodes of one workflow (checked when it is saved). */
export const workflowMaxNodes = () => setting("WORKFLOW_MAX_NODES", 50, NODES_CEILING);

/** Items one for_each node may loop over in a run (CONTRACT §13); a longer list fails the node before it starts. */
export const workflowMaxIterations = () => setting("WORKFLOW_MAX_ITERATIONS", 500);

/** Active workflows with a schedule, per team (checked when one is created or set running on a schedule). */
export const workflowMaxActiveSchedules = () => setting("WORKFLOW_MAX_ACTIVE_SCHEDULES", 100);

/**
 * A node's input once its {{…}} references are filled in: the referenced values' JSON, counted
 * while they are written in.
 */
export const templateMaxBytes = () => setting("WORKFLOW_TEMPLATE_MAX_BYTES", MIB);

/** The JSON of a built-in utility's output (format_text, filter_rows, pick_fields), counted while it is built. */
export const utilityMaxOutputBytes = () => setting("UTILITY_MAX_OUTPUT_BYTES", MIB);

/**
 * A log's stored input and its stored output, each; a larger one is stored as a truncation marker
 * (lib/logs/stored-body.ts).
 */
export const logBodyMaxBytes = () => setting("LOG_BODY_MAX_BYTES", MIB);

/**
 * A provider's answer to one call, read as a stream and stopped past it (lib/platforms/kit/
 * provider-fetch.ts). 10 MiB: above what the APIs answer per page (BigQuery caps a jobs.query page
 * at 10 MB, the ads reporting APIs page at far less) and above the compressed report files
 * (Amazon's gzip, Microsoft's ZIP) a day's report makes, yet small enough that a call holding it
 * three times over (bytes, text, parsed JSON) cannot exhaust a server's memory.
 */
export const providerMaxResponseBytes = () => setting("PROVIDER_MAX_RESPONSE_BYTES", 10 * MIB);

/** A cap that was reached: the message says which one, how big the thing got, and the setting that raises it. */
export class LimitExceeded extends Error {}

/** "1,048,576 bytes (1 MiB)", "1,050,000 bytes": the figures of a limit's sentence. */
export function bytes(n: number): string {
  const unit = n > 0 && n % MIB === 0 ? ` (${n / MIB} MiB)` : n > 0 && n % KIB === 0 ? ` (${n / KIB} KiB)` : "";
  return `${n.toLocaleString("en-US")} bytes${unit}`;
}

/** UTF-8 length of a string, without allocating (a lone surrogate counts 3, as the encoder's U+FFFD). */
export function utf8Bytes(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/**
 * The UTF-8 size of `JSON.stringify(value)`, walked without building the text: exact while it is
 * at most `limit`; once past it, the walk stops and returns the size reached (> limit), so a huge
 * value costs no more than `limit` to measure.
 */
export function jsonBytesWithin(value: unknown, limit: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    if (total > limit) return total;
    let v = stack.pop();
    if (v && typeof v === "object" && typeof (v as { toJSON?: unknown }).toJSON === "function")
      v = (v as { toJSON: () => unknown }).toJSON();
    if (typeof v === "string") {
      // Escapes only lengthen a string: a string longer than what is left is over for sure.
      if (v.length > limit - total) return limit + 1;
      total += utf8Bytes(JSON.stringify(v));
    } else if (typeof v === "number") total += Number.isFinite(v) ? String(v).length : 4;
    else if (typeof v === "boolean") total += v ? 4 : 5;
    else if (v === null || v === undefined || typeof v === "function" || typeof v === "symbol") total += 4;
    else if (typeof v === "bigint") total += String(v).length;
    else if (Array.isArray(v)) {
      total += 2 + Math.max(0, v.length - 1);
      // Every item takes at least one byte: a long list is over before it is walked.
      if (total + v.length > limit) return total + v.length;
      for (let i = v.length - 1; i >= 0; i--)
        stack.push(v[i] === undefined || typeof v[i] === "function" ? null : v[i]);
    } else {
      const entries = Object.entries(v as Record<string, unknown>).filter(
        ([, x]) => x !== undefined && typeof x !== "function" && typeof x !== "symbol",
      );
      total += 2 + Math.max(0, entries.length - 1);
      if (total + 4 * entries.length > limit) return total + 4 * entries.length;
      for (const [k, x] of entries) {
        total += utf8Bytes(JSON.stringify(k)) + 1;
        stack.push(x);
      }
    }
  }
  return total;
}

/** A positive number of the environment (fractions allowed), else the default. */
function positive(name: string, fallback: number): number {
  const raw = typeof process === "undefined" ? undefined : process.env?.[name];
  const v = Number(raw);
  return raw !== undefined && raw !== "" && Number.isFinite(v) && v > 0 ? v : fallback;
}

/** CONTRACT §12: how often the scheduler runs each connection's identity check (jittered ±10 %). */
export const connectionCheckIntervalMs = () => positive("CONNECTION_CHECK_INTERVAL_HOURS", 24) * 3_600_000;

/** CONTRACT §12: an OAuth access token this close to its expiry is refreshed (by the job, or before a call). */
export const tokenRefreshAheadMs = () => positive("TOKEN_REFRESH_AHEAD_SECONDS", 600) * 1000;

/** A connection no operation used for this long is stale. */
export const staleConnectionDays = () => positive("STALE_CONNECTION_DAYS", 30);
