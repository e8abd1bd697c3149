// bench:webhooks' three receivers, in a process of their own so their work is not the bench's:
// node:http servers on 127.0.0.1 that answer 200 at once, then verify the delivery's Standard
// Webhooks signature with the reference library (`standardwebhooks`) and record, per
// webhook-id, when it first arrived (Date.now() once the body is in), how many times, and the
// connection it names. Driven over the IPC channel by e2e/bench/webhooks.ts.
import http from "node:http";
import { Webhook } from "standardwebhooks";

export type ReceiverCounts = { received: number[]; duplicates: number[]; badSignatures: number[]; requests: number[] };
/** Per receiver: [webhook-id, data.connection.id and .created_at (ms; null when absent), first arrival ms, times received]. */
export type ReceiverDump = [
  id: string,
  connection: string | null,
  connectionCreatedAt: number | null,
  at: number,
  count: number,
][][];

export type ToReceivers =
  { cmd: "secrets"; secrets: string[] } | { cmd: "counts" } | { cmd: "dump" } | { cmd: "reset" };
export type FromReceivers =
  | { ports: number[] }
  | { counts: ReceiverCounts }
  | { dump: ReceiverDump; badSignatureSamples: string[] }
  | { ok: true };

type Seen = { connection: string | null; createdAt: number | null; at: number; count: number };

const RECEIVERS = 3;
const receivers = Array.from({ length: RECEIVERS }, () => ({
  verifier: null as Webhook | null,
  seen: new Map<string, Seen>(),
  bad: 0,
  requests: 0,
  duplicates: 0,
}));
const badSamples: string[] = [];

function receive(r: (typeof receivers)[number], req: http.IncomingMessage, res: http.ServerResponse) {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const at = Date.now();
    res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    r.requests++;
    const body = Buffer.concat(chunks).toString("utf8");
    const headers = {
      "webhook-id": String(req.headers["webhook-id"] ?? ""),
      "webhook-timestamp": String(req.headers["webhook-timestamp"] ?? ""),
      "webhook-signature": String(req.headers["webhook-signature"] ?? ""),
    };
    let connection: string | null = null;
    let createdAt: number | null = null;
    try {
      if (!r.verifier) throw new Error("no secret yet");
      const event = r.verifier.verify(body, headers) as {
        id?: string;
        data?: { connection?: { id?: string; created_at?: number } };
      };
      if (event.id !== headers["webhook-id"])
        throw new Error(`body id ${event.id} ≠ webhook-id ${headers["webhook-id"]}`);
      connection = event.data?.connection?.id ?? null;
      createdAt = event.data?.connection?.created_at ?? null;
    } catch (e) {
      r.bad++;
      if (badSamples.length < 5) badSamples.push(`${headers["webhook-id"]}: ${(e as Error).message}`);
      return;
    }
    const seen = r.seen.get(headers["webhook-id"]);
    if (seen) {
      seen.count++;
      r.duplicates++;
    } else r.seen.set(headers["webhook-id"], { connection, createdAt, at, count: 1 });
  });
}

const servers = receivers.map((r) => http.createServer((req, res) => receive(r, req, res)));

const send = (m: FromReceivers) => process.send!(m);

process.on("message", (m: ToReceivers) => {
  if (m.cmd === "secrets") {
    m.secrets.forEach((s, i) => (receivers[i].verifier = new Webhook(s)));
    send({ ok: true });
  } else if (m.cmd === "counts") {
    send({
      counts: {
        received: receivers.map((r) => r.seen.size),
        duplicates: receivers.map((r) => r.duplicates),
        badSignatures: receivers.map((r) => r.bad),
        requests: receivers.map((r) => r.requests),
      },
    });
  } else if (m.cmd === "dump") {
    send({
      dump: receivers.map((r) =>
        [...r.seen].map(([id, s]) => [id, s.connection, s.createdAt, s.at, s.count] as ReceiverDump[number][number]),
      ),
      badSignatureSamples: badSamples,
    });
  } else if (m.cmd === "reset") {
    for (const r of receivers) {
      r.seen.clear();
      r.bad = r.requests = r.duplicates = 0;
    }
    badSamples.length = 0;
    send({ ok: true });
  }
});
// The bench gone (even killed): nothing left listening.
process.on("disconnect", () => process.exit(0));

// Its ports to the bench, which waits for them; a receiver that can't listen ends the process
// (the bench sees it exit) instead of leaving an unhandled rejection.
Promise.all(
  servers.map(
    (s) => new Promise<number>((ok) => s.listen(0, "127.0.0.1", () => ok((s.address() as { port: number }).port))),
  ),
)
  .then((ports) => send({ ports }))
  .catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
