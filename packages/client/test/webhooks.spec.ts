import { Webhook } from "standardwebhooks";
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from "@patchbay/client";
import { test, expect, seedTeam, cli } from "../../../e2e/fixtures";
import { connect } from "../../../e2e/support/oauth-flow";
import { startReceiver, type Received } from "../../../e2e/support/webhook-receiver";
import { clientFor } from "./support";

// verifyWebhook on deliveries the server really sent: the quick start's flow (an auth link,
// then its auth_link.connected webhook), and every way a forged or replayed one is refused.

async function until<T>(find: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const found = find();
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test("a real auth_link.connected delivery verifies and comes back typed; a tampered, re-signed or replayed one is refused", async () => {
  const team = await seedTeam({ name: "Client hooks Co" });
  const receiver = await startReceiver();
  try {
    const made = await cli(
      "webhook",
      "create",
      "--team",
      team.id,
      "--url",
      receiver.url,
      "--events",
      "auth_link.connected",
    );
    expect(made.code).toBe(0);
    const secret: string = made.json.secret;
    const patchbay = clientFor(team.users[0]);

    const link = await patchbay.authLinks.create({ connection_type: "sandbox_oauth", external_id: "client-hooks" });
    await connect(link, "sandbox_oauth", { account: `acct-${team.id}` });
    const delivery: Received = await until(() => receiver.received[0], "the auth_link.connected delivery");

    const event: WebhookEvent = await verifyWebhook(delivery.body, delivery.headers, secret);
    expect(event.type).toBe("auth_link.connected");
    if (event.type !== "auth_link.connected") throw new Error("narrowed above");
    // Typed by its type: the link's status and the connection it made.
    expect(event.data.auth_link).toMatchObject({ id: link.id, status: "connected" });
    const status = await patchbay.authLinks.status(link.id);
    expect(event.data.connection.id).toBe(status.connection_id);
    expect(event.data.auth_link).toEqual(status);
    // A fetch Headers object works the same as Node's header record.
    expect(
      (
        await verifyWebhook(
          new TextEncoder().encode(delivery.body),
          new Headers(delivery.headers as Record<string, string>),
          secret,
        )
      ).id,
    ).toBe(event.id);

    const refusal = (body: string, headers: Record<string, unknown>, key = secret, options = {}) =>
      verifyWebhook(body, headers as Record<string, string>, key, options).then(
        () => "accepted",
        (e: Error) => (e instanceof WebhookVerificationError ? e.message : `other: ${e}`),
      );
    // One changed byte of the body.
    expect(await refusal(delivery.body.replace('"connected"', '"Connected"'), delivery.headers)).toContain(
      "No signature matches",
    );
    // Signed with another endpoint's secret.
    const other = await cli("webhook", "create", "--team", team.id, "--url", receiver.url, "--events", "credits.low");
    expect(await refusal(delivery.body, delivery.headers, other.json.secret)).toContain("No signature matches");
    // An old delivery replayed ten minutes later.
    expect(await refusal(delivery.body, delivery.headers, secret, { now: Number(delivery.timestamp) + 600 })).toContain(
      "more than 300 s",
    );
    // Headers missing, or the id swapped for another event's.
    expect(await refusal(delivery.body, { ...delivery.headers, "webhook-signature": undefined })).toContain("Missing");
    expect(await refusal(delivery.body, { ...delivery.headers, "webhook-id": "msg_other" })).toContain(
      "No signature matches",
    );
    // A parsed body cannot be verified: the signature covers the bytes.
    await expect(
      verifyWebhook(JSON.parse(delivery.body), delivery.headers as Record<string, string>, secret),
    ).rejects.toThrow("raw request body");
  } finally {
    await receiver.stop();
  }
});

test("during a secret rotation any of the listed signatures will do, as the standardwebhooks library signs them", async () => {
  const oldSecret = `whsec_${Buffer.from("a".repeat(32)).toString("base64")}`;
  const newSecret = `whsec_${Buffer.from("b".repeat(32)).toString("base64")}`;
  const body = JSON.stringify({
    id: "msg_rotation",
    type: "webhook.test",
    created_at: 1_800_000_000,
    team_id: "team_x",
    data: { endpoint_id: "we_x", message: "hi" },
  });
  const now = Math.floor(Date.now() / 1000);
  const sign = (secret: string) => new Webhook(secret).sign("msg_rotation", new Date(now * 1000), body);
  const headers = {
    "webhook-id": "msg_rotation",
    "webhook-timestamp": String(now),
    "webhook-signature": `${sign(newSecret)} ${sign(oldSecret)}`,
  };
  for (const secret of [oldSecret, newSecret])
    expect((await verifyWebhook(body, headers, secret)).type).toBe("webhook.test");
  const third = `whsec_${Buffer.from("c".repeat(32)).toString("base64")}`;
  await expect(verifyWebhook(body, headers, third)).rejects.toBeInstanceOf(WebhookVerificationError);
  await expect(verifyWebhook(body, headers, "not-a-secret!")).rejects.toThrow("whsec_");
});
