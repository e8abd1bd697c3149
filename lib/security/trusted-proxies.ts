import { BlockList, isIP } from "node:net";

// TRUSTED_PROXIES: the proxies (addresses or CIDR ranges, comma separated) whose
// X-Forwarded-For is believed. Off by default: then a client's address is its TCP peer's,
// whatever headers it sends.

/** "::ffff:10.0.0.1" (how Node reports an IPv4 peer on a dual-stack socket) is 10.0.0.1. */
function normalizeAddress(raw: string | null | undefined): string | null {
  const v = (raw ?? "").trim().replace(/^\[(.*)\]$/, "$1");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(v);
  const address = mapped ? mapped[1] : v;
  return isIP(address) ? address.toLowerCase() : null;
}

type Trust = { list: BlockList; any: boolean };

export function parseTrustedProxies(value: string | undefined): Trust {
  const list = new BlockList();
  let any = false;
  for (const entry of (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [addr, bits] = entry.split("/");
    const address = normalizeAddress(addr);
    const family = address ? (isIP(address) === 4 ? "ipv4" : "ipv6") : null;
    const prefix = bits === undefined ? undefined : Number(bits);
    if (
      !address ||
      !family ||
      (prefix !== undefined && (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === "ipv4" ? 32 : 128)))
    ) {
      throw new Error(
        `TRUSTED_PROXIES: ${JSON.stringify(entry)} is not an IP address or CIDR range (like 10.0.0.0/8 or 2001:db8::/32).`,
      );
    }
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, prefix, family);
    any = true;
  }
  return { list, any };
}

let trust: Trust | undefined;
const trusted = () => (trust ??= parseTrustedProxies(process.env.TRUSTED_PROXIES));

function isTrustedProxy(address: string): boolean {
  const t = trusted();
  return t.any && t.list.check(address, isIP(address) === 4 ? "ipv4" : "ipv6");
}

/**
 * The client's address: the TCP peer, unless the peer is a trusted proxy; then X-Forwarded-For
 * is walked from its right end (the hop the proxy itself added) past every trusted proxy, and
 * the first address that is not one is the client. A malformed hop stops the walk there.
 */
export function clientAddress(peer: string | null, forwardedFor: string | null): string | null {
  const from = normalizeAddress(peer);
  if (!from || !isTrustedProxy(from)) return from;
  const hops = (forwardedFor ?? "")
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
  let client = from;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeAddress(hops[i]);
    if (!hop) break;
    client = hop;
    if (!isTrustedProxy(hop)) break;
  }
  return client;
}
