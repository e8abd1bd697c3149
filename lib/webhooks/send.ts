import http from "node:http";
import https from "node:https";
import { checkUrlShape, pinnedLookup, resolveDeliveryAddresses, UnsafeWebhookUrl } from "@/lib/webhooks/url-safety";

// One HTTP attempt of a delivery: POST, the given headers, cut at the timeout, redirects never
// followed (a 3xx is a failure like any other non-2xx), the first 1 KB of the answer kept.

export type AttemptResult = {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  startedAt: number;
  durationMs: number;
};

const RESPONSE_KEEP_BYTES = 1024;
/** Past this much a response body is not read further: the socket is dropped instead. */
const RESPONSE_READ_LIMIT = 64 * 1024;

// Kept-alive sockets: a burst to one receiver reuses its connections.
const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 60_000 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 64, timeout: 60_000 }),
};

export async function postWebhook(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<AttemptResult> {
  const startedAt = Date.now();
  const done = (r: Omit<AttemptResult, "startedAt" | "durationMs">): AttemptResult => ({
    ...r,
    startedAt,
    durationMs: Date.now() - startedAt,
  });
  let url: URL;
  let target: { address: string; family: 4 | 6 };
  try {
    // Checked again now: DNS can point a public name at a private address after it was saved
    // (and a server may run without the development switch the endpoint was saved under).
    url = checkUrlShape(rawUrl);
    [target] = await resolveDeliveryAddresses(url);
  } catch (e) {
    return done({
      ok: false,
      statusCode: null,
      error: e instanceof UnsafeWebhookUrl ? e.message : String(e),
      responseBody: null,
    });
  }
  // Connect to the address just checked, not to whatever a second lookup would answer.
  const lookup = pinnedLookup(target);
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (r: Omit<AttemptResult, "startedAt" | "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(r));
    };
    const client = url.protocol === "https:" ? https : http;
    let current: http.ClientRequest | null = null;
    const timer = setTimeout(() => {
      current?.destroy();
      finish({ ok: false, statusCode: null, error: `Timed out after ${timeoutMs} ms`, responseBody: null });
    }, timeoutMs);
    const send = (retried: boolean) => {
      const req = client.request(
        url,
        {
          method: "POST",
          agent: agents[url.protocol as "http:" | "https:"],
          lookup,
          headers: {
            ...headers,
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
            "user-agent": "Patchbay-Webhooks/1.0",
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let read = 0;
          res.on("data", (chunk: Buffer) => {
            read += chunk.length;
            if (read - chunk.length < RESPONSE_KEEP_BYTES) chunks.push(chunk);
            if (read > RESPONSE_READ_LIMIT) res.destroy();
          });
          const settle = () => {
            const status = res.statusCode ?? 0;
            const text = Buffer.concat(chunks)
              .subarray(0, RESPONSE_KEEP_BYTES)
              .toString("utf8")
              .replace(/\0/g, "\ufffd");
            const ok = status >= 200 && status < 300;
            finish({
              ok,
              statusCode: status,
              error: ok ? null : status >= 300 && status < 400 ? `Redirect (${status}) not followed` : null,
              responseBody: text || null,
            });
          };
          res.on("end", settle);
          res.on("close", settle);
          res.on("error", settle);
        },
      );
      current = req;
      req.on("error", (e: NodeJS.ErrnoException) => {
        // A kept-alive socket the receiver closed while idle (Node servers do after 5 s): the
        // request never reached it, so it is sent once more on a fresh connection, at once.
        if (!retried && !settled && req.reusedSocket && e.code === "ECONNRESET") return send(true);
        finish({ ok: false, statusCode: null, error: describeNetworkError(e), responseBody: null });
      });
      req.end(body);
    };
    send(false);
  });
}

function describeNetworkError(e: NodeJS.ErrnoException): string {
  if (e.code === "ECONNREFUSED") return "Connection refused";
  if (e.code === "ECONNRESET") return "Connection reset by the receiver";
  if (e.code === "ENOTFOUND" || e.code === "EAI_AGAIN") return "The host could not be resolved";
  if (e.code?.startsWith("ERR_TLS") || /certificate|self.signed/i.test(e.message)) return `TLS error: ${e.message}`;
  return e.code ? `${e.code}: ${e.message}` : e.message;
}
