import { Server } from "node:http";

// The address a request really came from is the TCP peer's, which Next's route handlers never
// see: Next copies it into X-Forwarded-For only when the client sent none, so that header says
// whatever a client wants. This stamps the socket's address into a header of our own on every
// request as it arrives, replacing any value a client sent under that name; lib/observability/
// request-context.ts reads it, and believes X-Forwarded-For only from TRUSTED_PROXIES.

export const PEER_HEADER = "x-patchbay-peer";

const stamped = Symbol.for("patchbay.peer-address");

/** Installs the stamp in this process, once (instrumentation.ts, before the first request). */
export function stampPeerAddresses() {
  const proto = Server.prototype as Server & { [stamped]?: boolean };
  if (proto[stamped]) return;
  proto[stamped] = true;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with .call(this), each server as this
  const emit = proto.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
  proto.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const req = args[0] as
        { headers?: Record<string, string | string[] | undefined>; socket?: { remoteAddress?: string } } | undefined;
      if (req?.headers) req.headers[PEER_HEADER] = req.socket?.remoteAddress ?? "";
    }
    return emit.call(this, event, ...args);
  } as typeof proto.emit;
}
