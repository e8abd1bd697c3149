import { AsyncLocalStorage } from "node:async_hooks";
import { randomToken } from "@/lib/security/ids";
import { clientAddress } from "@/lib/security/trusted-proxies";
import { PEER_HEADER } from "@/lib/observability/peer-address";

// What the code under a request knows about it without passing it down every call: its id
// (for log lines) and who is acting (for audit events). The CLI sets an operator context;
// code run outside both (the demo seed, the test seeder) acts as "system".

/**
 * auth_link / invite_link: someone holding a link acted (finishing an OAuth connect, accepting an
 * invite) without signing in.
 */
type ActorKind = "session" | "api_key" | "cli" | "auth_link" | "invite_link" | "system";

export type Actor = { kind: ActorKind; userId?: string | null; email?: string | null; apiKeyId?: string | null };

export type RequestContext = { requestId?: string; ip?: string | null; actor?: Actor };

const storage = new AsyncLocalStorage<RequestContext>();

export const runWithContext = <T>(ctx: RequestContext, fn: () => T): T => storage.run(ctx, fn);

export const currentContext = (): RequestContext => storage.getStore() ?? {};

/** Sets who is acting once the request is authenticated. */
export function setActor(actor: Actor) {
  const ctx = storage.getStore();
  if (ctx) ctx.actor = actor;
}

// A caller's id is kept when it is short and plain, so it can be followed across services;
// anything else (too long, odd characters, a pasted secret) gets a fresh one.
const SANE_REQUEST_ID = /^[0-9A-Za-z._:-]{8,100}$/;

export function requestIdFrom(headers: Headers): string {
  const incoming = headers.get("x-request-id")?.trim();
  if (incoming && SANE_REQUEST_ID.test(incoming) && !/pb[km]_/.test(incoming)) return incoming;
  return `req_${randomToken(20)}`;
}

/**
 * The client's address: the TCP peer (stamped on arrival, lib/observability/peer-address.ts), or what a
 * trusted proxy (TRUSTED_PROXIES) forwarded; null outside a server (the CLI).
 */
export function clientIp(headers: Headers): string | null {
  return clientAddress(headers.get(PEER_HEADER), headers.get("x-forwarded-for"));
}
