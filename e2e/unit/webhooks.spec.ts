import { test, expect } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { DEFAULT_RETRY_SCHEDULE_SECONDS, RETRY_JITTER, retryDelayMs, retrySchedule } from "@/lib/webhooks/config";
import { newSigningSecret, signatureHeader } from "@/lib/webhooks/signature";
import {
  checkUrlShape,
  isNonPublicAddress,
  resolveDeliveryAddresses,
  UnsafeWebhookUrl,
} from "@/lib/webhooks/url-safety";
import { WEBHOOK_EVENT_FAMILIES, WEBHOOK_EVENT_TYPES } from "@/lib/schemas/webhook-event-types";

// The pure rules behind webhook delivery (CONTRACT §6); the HTTP behaviour is in e2e/api/webhooks.spec.ts.

test("retry delays: N delays mean 1 + N attempts; jitter only lengthens a delay, by at most 20 %", () => {
  const schedule = retrySchedule("1, 2,4");
  expect(schedule).toEqual([1, 2, 4]);
  for (const random of [0, 0.5, 0.999999]) {
    expect(retryDelayMs(1, schedule, random)).toBeGreaterThanOrEqual(1000);
    expect(retryDelayMs(3, schedule, random)).toBeLessThanOrEqual(4000 * (1 + RETRY_JITTER));
  }
  expect(retryDelayMs(4, schedule, 0.5)).toBeNull(); // the schedule is spent: the delivery fails
  expect(retryDelayMs(1, retrySchedule(""), 0)).toBe(10_000);
  expect(() => retrySchedule("1,x")).toThrow(/WEBHOOK_RETRY_SCHEDULE_SECONDS/);
  expect(() => retrySchedule("-1")).toThrow(/non-negative/);
  // The default spans about a day.
  const hours = DEFAULT_RETRY_SCHEDULE_SECONDS.reduce((a, b) => a + b, 0) / 3600;
  expect(hours).toBeGreaterThan(22);
  expect(hours * (1 + RETRY_JITTER)).toBeLessThan(30);
});

test("signatures: the reference library verifies ours, with one secret or two during a rotation", () => {
  const [a, b] = [newSigningSecret(), newSigningSecret()];
  expect(Buffer.from(a.slice("whsec_".length), "base64")).toHaveLength(32);
  const body = JSON.stringify({ id: "msg_1", type: "webhook.test", created_at: 1, team_id: "team_1", data: {} });
  const ts = Math.floor(Date.now() / 1000);
  const headers = (secrets: string[]) => ({
    "webhook-id": "msg_1",
    "webhook-timestamp": String(ts),
    "webhook-signature": signatureHeader(secrets, "msg_1", ts, body),
  });
  expect(new Webhook(a).verify(body, headers([a]))).toEqual(JSON.parse(body));
  expect(() => new Webhook(b).verify(body, headers([a]))).toThrow();
  for (const s of [a, b]) expect(new Webhook(s).verify(body, headers([b, a]))).toEqual(JSON.parse(body));
});

test("addresses: loopback, private, link-local, metadata and reserved ranges are refused; public ones pass", () => {
  for (const ip of [
    "127.0.0.1",
    "10.0.0.5",
    "172.20.1.1",
    "192.168.0.1",
    "169.254.169.254",
    "100.64.1.1",
    "0.0.0.0",
    "224.0.0.1",
    "::1",
    "::",
    "fd00:ec2::254",
    "fe80::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "64:ff9b::a9fe:a9fe",
  ]) {
    expect(isNonPublicAddress(ip), ip).toBe(true);
  }
  for (const ip of ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"])
    expect(isNonPublicAddress(ip), ip).toBe(false);
});

test("URLs: https only, no credentials or fragment; literal and named private hosts refused without the development switch", async () => {
  const saved = process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
  process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "";
  try {
    expect(() => checkUrlShape("http://example.com/h")).toThrow(/https:\/\//);
    expect(() => checkUrlShape("https://a:b@example.com/h")).toThrow(/user name or password/);
    expect(() => checkUrlShape("https://example.com/h#x")).toThrow(/fragment/);
    expect(() => checkUrlShape("example.com/h")).toThrow(/absolute URL/);
    expect(checkUrlShape("https://example.com/h?x=1").toString()).toBe("https://example.com/h?x=1");
    await expect(resolveDeliveryAddresses(new URL("https://127.0.0.1/h"))).rejects.toThrow(UnsafeWebhookUrl);
    await expect(resolveDeliveryAddresses(new URL("https://[::1]/h"))).rejects.toThrow(/loopback/);
    await expect(resolveDeliveryAddresses(new URL("https://localhost/h"))).rejects.toThrow(/this server/);
    await expect(resolveDeliveryAddresses(new URL("https://93.184.215.14/h"))).resolves.toEqual([
      { address: "93.184.215.14", family: 4 },
    ]);
    process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "1";
    expect(checkUrlShape("http://127.0.0.1:9/h").protocol).toBe("http:");
    await expect(resolveDeliveryAddresses(new URL("http://127.0.0.1:9/h"))).resolves.toHaveLength(1);
  } finally {
    process.env.WEBHOOK_ALLOW_PRIVATE_URLS = saved;
  }
});

test("the families of events the settings name are the catalogue's, every one of them", () => {
  const prefixes = new Set(WEBHOOK_EVENT_TYPES.map((t) => t.split(".")[0]));
  expect(WEBHOOK_EVENT_FAMILIES).toHaveLength(prefixes.size);
  expect(WEBHOOK_EVENT_FAMILIES).toEqual(["connections", "auth links", "credits", "approvals", "workflow runs"]);
});
