import { subscribe } from "node:diagnostics_channel";

// The HTTP requests this test process has sent with fetch (undici) and not yet finished, for
// the stall report: a test that waits on an answer shows here with the request's age and
// whether its response headers came back; the server's own list (lib/observability/
// requests-in-flight.ts) tells whether it arrived there. Playwright's request fixture goes
// through its own process and is not seen here.

type Sent = { method: string; url: string; at: number; status?: number; headersAfterMs?: number };
const sent = new Map<object, Sent>();
const FORGET_AFTER_MS = 10 * 60_000;

type UndiciRequest = { method: string; origin: string; path: string };
subscribe("undici:request:create", (message) => {
  const { request } = message as { request: UndiciRequest };
  const now = Date.now();
  // A response whose body nobody read never ends: forget such requests after a while.
  if (sent.size > 1_000) for (const [k, v] of sent) if (now - v.at > FORGET_AFTER_MS) sent.delete(k);
  sent.set(request, { method: request.method, url: `${request.origin}${request.path}`.slice(0, 300), at: now });
});
subscribe("undici:request:headers", (message) => {
  const { request, response } = message as { request: object; response: { statusCode: number } };
  const s = sent.get(request);
  if (s) Object.assign(s, { status: response.statusCode, headersAfterMs: Date.now() - s.at });
});
for (const channel of ["undici:request:trailers", "undici:request:error"])
  subscribe(channel, (message) => void sent.delete((message as { request: object }).request));

/** The requests in flight, oldest first. */
export function httpInFlight(): string[] {
  const now = Date.now();
  return [...sent.values()]
    .sort((a, b) => a.at - b.at)
    .slice(0, 20)
    .map(
      (s) =>
        `${s.method} ${s.url} ${now - s.at} ms: ` +
        (s.status === undefined
          ? "no response headers yet"
          : `headers ${s.status} after ${s.headersAfterMs} ms, body not read to the end`),
    );
}
