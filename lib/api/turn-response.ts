import "server-only";
import { errorResponse, json } from "@/lib/http/json";
import type { TurnListener } from "@/lib/agents/run-turn";

// An agent turn's answer (CONTRACT §11): JSON once the turn ends, or, with `Accept:
// text/event-stream`, a stream of Server-Sent Events while it runs: `text` ({"delta"}) as the
// model writes, `step` (a Step) as an operation runs or is filed, then `turn` (the same body as
// the JSON answer) or `error` ({"detail"}). A refusal before the turn starts (a bad body, an
// unknown conversation, a busy one) is the usual JSON error either way.

const encoder = new TextEncoder();
const event = (name: string, data: unknown) => encoder.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);

export async function turnResponse(
  req: Request,
  status: 200 | 201,
  run: (listener: TurnListener & { start: () => void }) => Promise<unknown>,
): Promise<Response> {
  if (!(req.headers.get("accept") ?? "").includes("text/event-stream"))
    return json(await run({ start() {} }), { status });
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  let open = true;
  const send = (name: string, data: unknown) => {
    if (!open) return;
    try {
      controller.enqueue(event(name, data));
    } catch {
      open = false; // the client went away; the turn runs on and is kept
    }
  };
  let started!: () => void;
  const ready = new Promise<void>((resolve) => (started = resolve));
  const done = run({ start: started, text: (delta) => send("text", { delta }), step: (step) => send("step", step) });
  done.then(
    (result) => {
      send("turn", result);
      if (open) controller.close();
    },
    async (e: unknown) => {
      send("error", await errorResponse(e).json());
      if (open) controller.close();
    },
  );
  // Errors before the turn exists are answered as JSON; after, they travel in the stream.
  await Promise.race([ready, done]);
  return new Response(body, {
    status,
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-accel-buffering": "no",
    },
  });
}
