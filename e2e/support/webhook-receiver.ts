import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

// A real HTTP receiver for webhook tests: records every request and answers as scripted.

export type Received = {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  at: number;
  headers: http.IncomingHttpHeaders;
  path: string;
  /** For a request answered "hang": when the sender gave up on it (closed the connection). */
  closedAt?: number;
};
export type Answer = { status: number; body?: string; headers?: Record<string, string> } | "hang";

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** `answer(n, request)` decides the reply to the n-th request (1-based); 200 by default. `port` 0: any free one. */
export async function startReceiver(
  answer: (n: number, r: Received) => Answer = () => ({ status: 200, body: "ok" }),
  port = 0,
) {
  const received: Received[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const r: Received = {
        id: String(req.headers["webhook-id"] ?? ""),
        timestamp: String(req.headers["webhook-timestamp"] ?? ""),
        signature: String(req.headers["webhook-signature"] ?? ""),
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
        headers: req.headers,
        path: req.url ?? "/",
      };
      received.push(r);
      const a = answer(received.length, r);
      if (a === "hang") {
        hanging.add(res);
        res.on("close", () => (r.closedAt ??= Date.now()));
        return;
      }
      res.writeHead(a.status, { "content-type": "text/plain", ...a.headers });
      res.end(a.body ?? "");
    });
  });
  await new Promise<void>((ok) => server.listen(port, "127.0.0.1", ok));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/hook`,
    port: bound,
    received,
    events: () =>
      received.map(
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion
        (r) => JSON.parse(r.body) as { id: string; type: string; created_at: number; team_id: string; data: any },
      ),
    ofType: (type: string) => received.filter((r) => JSON.parse(r.body).type === type),
    async stop() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    },
  };
}

/** Verifies with the Standard Webhooks reference library, as a receiver would; throws when it does not verify. */
export function verify(secret: string, r: Pick<Received, "id" | "timestamp" | "signature" | "body">) {
  return new Webhook(secret).verify(r.body, {
    "webhook-id": r.id,
    "webhook-timestamp": r.timestamp,
    "webhook-signature": r.signature,
  });
}

/** Polls until `check` returns a truthy value (or throws when `ms` pass). */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  ms = 10_000,
  what = "the condition",
): Promise<NonNullable<T>> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
