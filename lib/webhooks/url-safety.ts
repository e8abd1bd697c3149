import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
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
] as const) blocked.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7], // unique local, including AWS's metadata address fd00:ec2::254
  ["fe80::", 10],
  ["ff00::", 8],
  ["2001:db8::", 32],
  ["100::", 64],
] as const) blocked.addSubnet(net, prefix, "ipv6");

/** An IPv4 address embedded in an IPv6 one (mapped ::ffff:a.b.c.d, or NAT64 64:ff9b::/96). */
function embeddedIpv4(address: string): string | null {
  const m = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!m) return null;
  if (m[1]) return m[1];
  const hi = parseInt(m[2], 16);
  const lo = parseInt(m[3], 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
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
      url.protocol === "http:" ? "The URL must use https:// (http is accepted only with WEBHOOK_ALLOW_PRIVATE_URLS=1, for local development)." : `The URL must use https://, not ${url.protocol}`,
    );
  }
  if (url.username || url.password) throw new UnsafeWebhookUrl("The URL must not contain a user name or password; authenticate deliveries with the signature instead.");
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
export async function resolveDeliveryAddresses(url: URL, { requireResolvable = true } = {}): Promise<{ address: string; family: 4 | 6 }[]> {
  const host = hostOf(url);
  const literal = isIP(host);
  const allow = privateUrlsAllowed();
  if (literal) {
    if (!allow && isNonPublicAddress(host)) throw new UnsafeWebhookUrl(`${host} is a loopback, private, link-local or reserved address; webhooks go only to public hosts.`);
    return [{ address: host, family: literal as 4 | 6 }];
  }
  if (!allow && (host === "localhost" || host.endsWith(".localhost"))) throw new UnsafeWebhookUrl(`${host} is this server itself; webhooks go only to public hosts.`);
  let found: { address: string; family: number }[];
  try {
    found = await lookup(host, { all: true, verbatim: true });
  } catch (e) {
    if (!requireResolvable) return [];
    throw new UnsafeWebhookUrl(`The host ${host} could not be resolved (${(e as { code?: string }).code ?? "DNS error"}).`);
  }
  if (!allow) {
    const bad = found.find((a) => isNonPublicAddress(a.address));
    if (bad) throw new UnsafeWebhookUrl(`${host} resolves to ${bad.address}, a loopback, private, link-local or metadata address; webhooks go only to public hosts.`);
  }
  return found.map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
}

/** For saving an endpoint: the shape rules, and the address rules when the host resolves now. */
export async function checkEndpointUrl(raw: string): Promise<string> {
  const url = checkUrlShape(raw.trim());
  await resolveDeliveryAddresses(url, { requireResolvable: false });
  return url.toString();
}
