import { lookup } from "node:dns/promises";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { privateUrlsAllowed } from "@/lib/webhooks/config";

// A webhook URL is fetched by the server, so it must not reach the server's own network:
// https only, and no host that resolves to a loopback, private, link-local, metadata or other
// non-public address. Checked when an endpoint is saved and again at every delivery (DNS can
// change); the delivery then connects to the very address that was checked.
// WEBHOOK_ALLOW_PRIVATE_URLS=1 lifts both rules for development and the tests.

const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, and the cloud metadata address 169.254.169.254
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and broadcast
] as const)
  blocked.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7], // unique local, including AWS's metadata address fd00:ec2::254
  ["fe80::", 10],
  ["ff00::", 8],
  ["2001:db8::", 32],
  ["100::", 64],
  // Addresses that carry an IPv4 address a router or the host may turn into a connection to it:
  ["::", 96], // IPv4-compatible (deprecated), ::a.b.c.d
  ["::ffff:0:0:0", 96], // IPv4-translated (SIIT), ::ffff:0:a.b.c.d
  ["2002::", 16], // 6to4: 2002:AABB:CCDD::/48 reaches a.b.c.d's relay
  ["2001::", 32], // Teredo: an IPv4 address and port, obfuscated
  ["64:ff9b:1::", 48], // local-use NAT64 (RFC 8215): any IPv4 the operator's translator reaches
  ["fec0::", 10], // site-local (deprecated, still routed inside some networks)
] as const)
  blocked.addSubnet(net, prefix, "ipv6");

/**
 * The 16 bytes of an IPv6 address in any of its text forms (zero compression, a dotted IPv4 tail);
 * null if it is not one.
 */
function ipv6Bytes(address: string): number[] | null {
  let text = address.toLowerCase().replace(/%.*$/, "");
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    if (isIP(dotted[1]) !== 4) return null;
    const [a, b, c, d] = dotted[1].split(".").map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parts = (s: string) => (s ? s.split(":") : []);
  const head = parts(halves[0]);
  const tail = halves.length === 2 ? parts(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 2 && missing < 1) || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 255]);
}

/** The IPv4 address an IPv4-mapped (::ffff:0:0/96) or NAT64 (64:ff9b::/96) address stands for. */
function embeddedIpv4(address: string): string | null {
  const b = ipv6Bytes(address);
  if (!b) return null;
  const prefix = b.slice(0, 12).join(",");
  const mapped = "0,0,0,0,0,0,0,0,0,0,255,255";
  const nat64 = "0,100,255,155,0,0,0,0,0,0,0,0";
  return prefix === mapped || prefix === nat64 ? b.slice(12).join(".") : null;
}

export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    return v4 ? blocked.check(v4, "ipv4") : blocked.check(address, "ipv6");
  }
  return true;
}

export class UnsafeWebhookUrl extends Error {}

/** Shape rules: an absolute https URL (http too in development), no credentials, no fragment. */
export function checkUrlShape(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeWebhookUrl(`${JSON.stringify(raw)} is not an absolute URL; use https://your-host/path.`);
  }
  const allowHttp = privateUrlsAllowed();
  if (url.protocol !== "https:" && !(allowHttp && url.protocol === "http:")) {
    throw new UnsafeWebhookUrl(
      url.protocol === "http:"
        ? "The URL must use https:// (http is accepted only with WEBHOOK_ALLOW_PRIVATE_URLS=1, for local development)."
        : `The URL must use https://, not ${url.protocol}`,
    );
  }
  if (url.username || url.password)
    throw new UnsafeWebhookUrl(
      "The URL must not contain a user name or password; authenticate deliveries with the signature instead.",
    );
  if (url.hash) throw new UnsafeWebhookUrl("The URL must not contain a #fragment.");
  if (raw.length > 2048) throw new UnsafeWebhookUrl("The URL is longer than 2048 characters.");
  return url;
}

const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1");

/**
 * The addresses a delivery may connect to. Throws UnsafeWebhookUrl when any address the host
 * resolves to is not public (a name with one private address could be steered to it).
 * `requireResolvable` false (at save time) lets a name that does not resolve yet pass.
 */
export async function resolveDeliveryAddresses(
  url: URL,
  { requireResolvable = true } = {},
): Promise<{ address: string; family: 4 | 6 }[]> {
  const host = hostOf(url);
  const literal = isIP(host);
  const allow = privateUrlsAllowed();
  if (literal) {
    if (!allow && isNonPublicAddress(host))
      throw new UnsafeWebhookUrl(
        `${host} is a loopback, private, link-local or reserved address; webhooks go only to public hosts.`,
      );
    return [{ address: host, family: literal as 4 | 6 }];
  }
  if (!allow && (host === "localhost" || host.endsWith(".localhost")))
    throw new UnsafeWebhookUrl(`${host} is this server itself; webhooks go only to public hosts.`);
  let found: { address: string; family: number }[];
  try {
    found = await lookup(host, { all: true, verbatim: true });
  } catch (e) {
    if (!requireResolvable) return [];
    throw new UnsafeWebhookUrl(
      `The host ${host} could not be resolved (${(e as { code?: string }).code ?? "DNS error"}).`,
    );
  }
  if (!allow) {
    const bad = found.find((a) => isNonPublicAddress(a.address));
    if (bad)
      throw new UnsafeWebhookUrl(
        `${host} resolves to ${bad.address}, a loopback, private, link-local or metadata address; webhooks go only to public hosts.`,
      );
  }
  return found.map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
}

/** For saving an endpoint: the shape rules, and the address rules when the host resolves now. */
export async function checkEndpointUrl(raw: string): Promise<string> {
  const url = checkUrlShape(raw.trim());
  await resolveDeliveryAddresses(url, { requireResolvable: false });
  return url.toString();
}

/** A socket lookup that answers with `target` only: the connection goes to the address that was checked. */
export function pinnedLookup(target: { address: string; family: 4 | 6 }): LookupFunction {
  return (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
}
