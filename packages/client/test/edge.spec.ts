import { build } from "esbuild";
import { EdgeVM } from "@edge-runtime/vm";
import { Webhook } from "standardwebhooks";
import { join } from "node:path";
import { test, expect, seedTeam, baseURL } from "../../../e2e/fixtures";
import { root } from "../../../e2e/support/server";

// The client's core is for edge runtimes as much as for Node: bundled for a platform with no
// Node built-ins, it builds, and it runs in Vercel's Edge Runtime VM against the real server.

async function bundle() {
  const result = await build({
    entryPoints: [join(root, "packages", "client", "dist", "index.js")],
    bundle: true,
    // "neutral": no Node built-in resolves, so importing one is a build error here.
    platform: "neutral",
    mainFields: ["module", "main"],
    format: "iife",
    globalName: "PatchbayClient",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0].text;
}

test("bundled with no Node built-ins available, the client lists, pages and verifies webhooks inside the Edge Runtime", async () => {
  const code = await bundle();
  expect(code).not.toMatch(/require\(["']node:|from ["']node:/);
  const team = await seedTeam({ name: "Client edge Co" });
  const secret = `whsec_${Buffer.from("e".repeat(32)).toString("base64")}`;
  const body = JSON.stringify({
    id: "msg_edge",
    type: "webhook.test",
    created_at: 1_800_000_000,
    team_id: team.id,
    data: { endpoint_id: "we_edge", message: "hi" },
  });
  const now = new Date();
  const signature = new Webhook(secret).sign("msg_edge", now, body);

  const vm = new EdgeVM({ initialCode: code });
  expect(vm.evaluate("typeof EdgeRuntime")).toBe("string");
  const input = JSON.stringify({
    baseUrl: baseURL(),
    apiKey: team.users[0].key,
    secret,
    body,
    headers: {
      "webhook-id": "msg_edge",
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": signature,
    },
  });
  const result = await vm.evaluate(`(async () => {
    const input = ${input};
    const { Patchbay, verifyWebhook, PatchbayError } = PatchbayClient;
    const patchbay = new Patchbay({ baseUrl: input.baseUrl, apiKey: input.apiKey });
    const balance = await patchbay.credits.get();
    const link = await patchbay.authLinks.create({ connection_type: "sandbox_oauth" });
    const logs = [];
    for await (const log of patchbay.logs.iterate({ limit: 10 })) logs.push(log);
    const event = await verifyWebhook(input.body, new Headers(input.headers), input.secret);
    const refused = await verifyWebhook(input.body + " ", new Headers(input.headers), input.secret).then(() => "accepted", (e) => e.name);
    const notFound = await patchbay.logs.get("log_missing000000000000").then(() => null, (e) => ({ isError: e instanceof PatchbayError, status: e.status }));
    return JSON.stringify({ tier: balance.tier, link: link.url, logs: logs.length, event: event.type, refused, notFound });
  })()`);
  expect(JSON.parse(result)).toEqual({
    tier: expect.any(String),
    link: expect.stringContaining("/connect/"),
    logs: 0,
    event: "webhook.test",
    refused: "WebhookVerificationError",
    notFound: { isError: true, status: 404 },
  });
});
