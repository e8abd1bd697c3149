import "server-only";
import { appUrl, mcpAllowedOrigins } from "@/lib/config/env";

// The MCP transport's security warning (spec 2025-11-25, Streamable HTTP): a server MUST check
// `Origin` on every request and answer 403 when it is present and not allowed, so a web page
// cannot drive /mcp from a visitor's browser; and `Host` is what DNS rebinding forges (a page of
// evil.example whose name now resolves to this server sends `Host: evil.example`). Allowed:
// APP_URL's origin and host, MCP_ALLOWED_ORIGINS and their hosts. A request without `Origin`
// (a server-side client: no browser page behind it) goes on. A loopback `Host` (localhost,
// 127.0.0.0/8, [::1], any port) is accepted too: a browser sends one only for a page it loaded
// from this machine, whose `Origin` is then checked, and a proxy or a second instance on the same
// machine reaches the app by one.

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

const HOST_SHAPE = /^([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/i;

/**
 * A Host header's host as URL.host reads it under APP_URL's scheme (default port dropped), or null
 * when it is not one.
 */
function normalHost(host: string, protocol: string): URL | null {
  if (!HOST_SHAPE.test(host)) return null;
  try {
    return new URL(`${protocol}//${host}`);
  } catch {
    return null;
  }
}

/** Why this request may not reach /mcp (a sentence), or null when its Origin and Host are allowed. */
export function foreignOriginProblem(headers: Headers): string | null {
  const app = new URL(appUrl());
  const allowed = [app.origin, ...mcpAllowedOrigins()];
  const origin = headers.get("origin");
  if (origin !== null && !allowed.includes(origin))
    return `Origin ${JSON.stringify(origin.slice(0, 200))} may not call this MCP endpoint: a browser page may call it only from ${allowed.join(", ")} (MCP_ALLOWED_ORIGINS adds origins).`;
  const host = headers.get("host");
  if (host === null) return null;
  const hosts = allowed.map((o) => new URL(o).host);
  const seen = normalHost(host, app.protocol);
  if (seen && (hosts.includes(seen.host) || LOOPBACK.test(seen.hostname))) return null;
  return `Host ${JSON.stringify(host.slice(0, 200))} is not this server's address (${app.host}): requests must name the host in APP_URL or MCP_ALLOWED_ORIGINS.`;
}
