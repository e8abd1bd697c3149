import type { Metadata } from "next";
import {
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TEST_EVENT,
  type WebhookEventType,
} from "@/lib/schemas/webhook-event-types";
import {
  DEFAULT_RETRY_SCHEDULE_SECONDS,
  DISABLE_AFTER_MS,
  PREVIOUS_SECRET_GRACE_MS,
  RETRY_JITTER,
} from "@/lib/webhooks/config";
import { signatureHeader } from "@/lib/webhooks/signature";
import { EXAMPLE_EVENTS, EXAMPLE_SECRET, exampleOf } from "@/app/docs/webhooks/examples";
import { C, H3, link, Pre, Section, Table } from "@/components/docs/doc-parts";
import Link from "next/link";
import { DocsBar } from "@/components/docs/docs-bar";

export const metadata: Metadata = { title: "Webhooks guide · Docs · Patchbay" };

// The catalogue, the retry schedule and the grace periods come from lib/webhooks, and the
// worked signature is computed by the signing code itself, so this page cannot drift from them.

/** 10 → "10 s", 5400 → "1 h 30 min", 102000 → "28 h 20 min". */
function duration(totalSeconds: number): string {
  const s = Math.round(totalSeconds);
  if (s === 0) return "0 s";
  const parts: string[] = [];
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h) parts.push(`${h} h`);
  if (m) parts.push(`${m} min`);
  if (sec) parts.push(`${sec} s`);
  return parts.join(" ");
}

const pretty = (value: unknown) => JSON.stringify(value, null, 2);
const hours = (ms: number) => ms / 3_600_000;

/** Where and when each type is written, beyond its one-line description. */
const WHEN: Record<WebhookEventType, React.ReactNode> = {
  "connection.created": (
    <>
      Sent on <C>POST /v1/connections</C> for an account that is not connected yet (with an API-key type: every post),
      or an auth link that connected a new account (then <C>auth_link.connected</C> is sent too). <C>data</C>:{" "}
      <C>{"{connection}"}</C>.
    </>
  ),
  "connection.updated": (
    <>
      Sent when the same account was connected again and its connection replaced in place (same <C>id</C>):{" "}
      <C>POST /v1/connections</C> with that account&apos;s credentials, or an auth link for it, which is how a
      connection that needs re-authorization is repaired. <C>data</C>: <C>{"{connection}"}</C>.
    </>
  ),
  "connection.deleted": (
    <>
      Sent on <C>DELETE /v1/connections/{"{id}"}</C> or a deletion in the dashboard. <C>connection</C> is the connection
      as it was just before; <C>deactivated_workflow_ids</C> lists the team&apos;s active workflows that used it and
      were switched off in the same change (<C>[]</C> when none). <C>data</C>:{" "}
      <C>{"{connection, deactivated_workflow_ids}"}</C>.
    </>
  ),
  "connection.needs_reauth": (
    <>
      Sent when a use of the connection (an API call, an MCP tool, a workflow) meets a refusal: the provider refused to
      refresh the token, or refused a token that cannot be refreshed. <C>reason</C> is the provider&apos;s own. Later
      uses answer 409 and send nothing more; a re-authorization through a new auth link for the same account (a{" "}
      <C>connection.updated</C>) ends the state, and a later refusal sends the event again. <C>data</C>:{" "}
      <C>{"{connection, reason}"}</C>.
    </>
  ),
  "connection.health_changed": (
    <>
      Sent when a connection&apos;s health changes: its scheduled identity check (every{" "}
      <C>CONNECTION_CHECK_INTERVAL_HOURS</C>, default 24), <em>Check now</em>, a refused use, or a re-authorization
      found it <C>healthy</C>, <C>needs_reauth</C> (the provider refused the credential) or <C>unreachable</C> (a
      timeout, a 5xx or a network error; <C>error</C> says which). <C>data</C>:{" "}
      <C>{"{connection, health, previous, error}"}</C>.
    </>
  ),
  "auth_link.connected": (
    <>
      Sent when the OAuth callback has stored the connection and consumed the link. <C>auth_link</C> is what{" "}
      <C>GET /v1/connections/auth-links/{"{id}"}/status</C> returns (<C>status</C> <C>&quot;connected&quot;</C>); the
      same change sends <C>connection.created</C> (<C>connection.updated</C> if the account was already connected).{" "}
      <C>data</C>: <C>{"{auth_link, connection}"}</C>.
    </>
  ),
  "auth_link.failed": (
    <>
      Sent when the end user denied access at the provider (<C>error</C> = <C>access_denied</C>), or the provider
      returned an error or did not complete the sign-in (<C>provider_error</C>). <C>error</C> and{" "}
      <C>error_description</C> are exactly the values the browser is sent to your <C>redirect_url</C> with. The link
      stays <C>pending</C> and can be opened again until it expires; <C>link_expired</C>, <C>link_used</C> and{" "}
      <C>invalid_request</C> send no event. <C>data</C>: <C>{"{auth_link, error, error_description}"}</C>.
    </>
  ),
  "credits.low": (
    <>
      Sent as described under{" "}
      <a className={link} href="#credits">
        credits events
      </a>
      . <C>data</C>: <C>{"{balance, low_credits_percent}"}</C>, the balance right after the charge.
    </>
  ),
  "credits.exhausted": (
    <>
      Sent as described under{" "}
      <a className={link} href="#credits">
        credits events
      </a>
      . <C>data</C>: <C>{"{balance, low_credits_percent}"}</C>, the balance right after the charge.
    </>
  ),
  "approval.requested": (
    <>
      Sent when an agent&apos;s <C>run_write_operation</C> on an MCP server whose write policy is <em>approval</em>{" "}
      files a request (see{" "}
      <Link className={link} href="/docs/operations#approvals">
        approvals
      </Link>
      ). Route it to Slack to ask the team. <C>data</C>: <C>{"{approval}"}</C> with <C>status</C> <C>pending</C>.
    </>
  ),
  "approval.resolved": (
    <>
      Sent once per request when it ends: <C>rejected</C>, <C>expired</C> (within 15 s of <C>expires_at</C>), or
      approved and then <C>succeeded</C> or <C>failed</C>. <C>data</C>: <C>{"{approval}"}</C> with <C>decided_by</C> and{" "}
      <C>decided_at</C> once a member decided.
    </>
  ),
  "workflow.run_failed": (
    <>
      Sent when a{" "}
      <Link className={link} href="/docs/workflows">
        workflow
      </Link>{" "}
      run ends with a node that still failed after its retries (the nodes after it are logged <C>skipped</C>).{" "}
      <C>data</C>: <C>{"{workflow: {id, name}, run_id, failed_node_id, error}"}</C>; the Logs page filtered by{" "}
      <C>source_run_id</C> shows the run.
    </>
  ),
  "workflow.deactivated": (
    <>
      Sent when Patchbay stops a{" "}
      <Link className={link} href="/docs/workflows">
        workflow
      </Link>{" "}
      because the consent it ran on is gone: a member whose private connection it used left the team, or someone else
      replaced the credentials of a connection it writes to. <C>data</C>: <C>{"{workflow: {id, name}, reason}"}</C>; an
      owner activates it again once it is right.
    </>
  ),
};

const CONTENTS: [string, string][] = [
  ["endpoints", "Adding an endpoint"],
  ["request", "The request"],
  ["events", "Event types"],
  ["signatures", "Verifying signatures"],
  ["delivery", "Delivery and retries"],
  ["urls", "Which URLs are accepted"],
  ["credits", "Credits events"],
  ["configuration", "Configuration"],
];

const STANDARDWEBHOOKS_SNIPPET = `// npm install standardwebhooks express
import express from "express";
import { Webhook } from "standardwebhooks";

const webhook = new Webhook(process.env.PATCHBAY_WEBHOOK_SECRET); // "whsec_…"
const app = express();

// express.raw: the body as the exact bytes received. Parsing JSON first and
// serializing it again changes the bytes, and the signature no longer matches.
app.post("/hooks/patchbay", express.raw({ type: "application/json" }), async (req, res) => {
  let event;
  try {
    // Checks every v1 signature in webhook-signature (two while a rotated secret is
    // still valid) and rejects a webhook-timestamp more than 5 minutes from now.
    event = webhook.verify(req.body, req.headers);
  } catch {
    return res.status(400).send("invalid signature");
  }
  // At least once: the same event can arrive again. webhook-id (= event.id) is stable.
  if (await alreadyHandled(event.id)) return res.sendStatus(204);
  await enqueue(event); // answer fast; do the work after the 2xx
  res.sendStatus(204);
});`;

const NODE_CRYPTO_SNIPPET = `import { createHmac, timingSafeEqual } from "node:crypto";

const TOLERANCE_SECONDS = 5 * 60;

/**
 * Returns the event, or throws. rawBody: the request body exactly as received (a Buffer).
 * headers: lower-case names, as Node's req.headers has them.
 */
export function verifyPatchbayWebhook(secret, rawBody, headers) {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  const signatures = headers["webhook-signature"];
  if (!id || !timestamp || !signatures) throw new Error("missing webhook headers");

  // Replays: refuse a timestamp more than 5 minutes away from this clock.
  const sentAt = Number(timestamp);
  if (!Number.isInteger(sentAt) || Math.abs(Date.now() / 1000 - sentAt) > TOLERANCE_SECONDS) {
    throw new Error("webhook-timestamp is too old or too new");
  }

  // The key is the base64-decoded part after "whsec_".
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key).update(\`\${id}.\${timestamp}.\`).update(rawBody).digest();

  // Space-separated "v1,<base64>" entries; any one that matches will do.
  const valid = signatures.split(" ").some((entry) => {
    const [version, value] = entry.split(",");
    if (version !== "v1" || !value) return false;
    const given = Buffer.from(value, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected); // constant time
  });
  if (!valid) throw new Error("no valid signature");
  return JSON.parse(rawBody.toString("utf8"));
}`;

export default function WebhooksDocsPage() {
  // The worked example: the real signing code over one example body.
  const testEvent = EXAMPLE_EVENTS[WEBHOOK_TEST_EVENT];
  const testBody = JSON.stringify(testEvent);
  const testTimestamp = testEvent.created_at + 1;
  const testSignature = signatureHeader([EXAMPLE_SECRET], testEvent.id, testTimestamp, testBody);

  let elapsed = 0;
  const retryRows: React.ReactNode[][] = [["1", "—", "0 s", "right away"]];
  DEFAULT_RETRY_SCHEDULE_SECONDS.forEach((delay, i) => {
    elapsed += delay;
    retryRows.push([
      String(i + 2),
      duration(delay),
      duration(elapsed),
      `${duration(elapsed)} – ${duration(elapsed * (1 + RETRY_JITTER))}`,
    ]);
  });
  const attempts = DEFAULT_RETRY_SCHEDULE_SECONDS.length + 1;
  const jitterPercent = Math.round(RETRY_JITTER * 100);
  const disableDays = DISABLE_AFTER_MS / 86_400_000;
  const graceHours = hours(PREVIOUS_SECRET_GRACE_MS);

  return (
    <main className="mx-auto max-w-4xl px-4 py-6 sm:px-6">
      <DocsBar current="/docs/webhooks" />
      <h1 className="mt-8 text-3xl font-semibold tracking-tight">Webhooks</h1>
      <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">
        Signed event notifications ·{" "}
        <Link className={link} href="/docs/api">
          API reference
        </Link>{" "}
        ·{" "}
        <a className={link} href="https://www.standardwebhooks.com/">
          Standard Webhooks
        </a>
      </p>
      <p className="mt-4 text-zinc-700 dark:text-zinc-300">
        Webhooks tell your systems when something changes in a team — a connection created, replaced, deleted or in need
        of re-authorization, an auth link used or failed, credits running low or out — so they need not poll the API.
        Each event is a JSON <C>POST</C> to each endpoint of the team that subscribed to its type, signed according to{" "}
        <a className={link} href="https://www.standardwebhooks.com/">
          Standard Webhooks
        </a>
        , retried for about a day until your endpoint answers with a 2xx.
      </p>

      <nav aria-label="On this page" className="mt-6 text-sm">
        <h2 className="text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">On this page</h2>
        <ol className="mt-2 grid list-inside list-decimal gap-x-6 gap-y-1 sm:grid-cols-2">
          {CONTENTS.map(([id, title]) => (
            <li key={id}>
              <a className={link} href={`#${id}`}>
                {title}
              </a>
            </li>
          ))}
        </ol>
      </nav>

      <Section id="endpoints" title="Adding an endpoint">
        <p>
          Team owners manage endpoints in <strong>Settings → Webhooks</strong> (<strong>Add endpoint</strong>): the URL
          (<C>https://</C>, see{" "}
          <a className={link} href="#urls">
            which URLs are accepted
          </a>
          ), the event types it receives (all of them — types added later included — or a selection) and an optional
          description. From the command line:
        </p>
        <Pre label="webhook create">{`npm run --silent cli -- webhook create --team team_… --url https://example.com/hooks/patchbay
{"id":"we_…","secret":"whsec_…"}

npm run --silent cli -- webhook create --team team_… --url https://example.com/hooks/links \\
  --events auth_link.connected,auth_link.failed

npm run --silent cli -- webhook list --team team_…
{"endpoints":[{"id":"we_…","url":"https://example.com/hooks/patchbay","events":["*"],"enabled":true}, …]}`}</Pre>
        <p>
          <strong>The signing secret is shown once</strong>, when the endpoint is created: <C>whsec_</C> followed by the
          base64 of 32 random bytes. Keep it where your receiver reads its secrets; Patchbay stores it encrypted and
          never shows it again (<C>webhook list</C> prints <C>[&quot;*&quot;]</C> for &ldquo;every type&rdquo; and never
          the secret).
        </p>
        <ul className="list-disc space-y-2 pl-5">
          <li>
            <strong>Rotate secret</strong> issues a new secret, again shown once. The old one keeps signing for{" "}
            {graceHours} h: during that time every request&apos;s <C>webhook-signature</C> header carries two
            signatures, the new secret&apos;s first, so a receiver verifies with either and you can deploy the new
            secret at your pace.
          </li>
          <li>
            <strong>Enabled / Disabled</strong> (the endpoint&apos;s on/off switch). A disabled endpoint is not sent
            anything: events that happen meanwhile are not queued for it, and deliveries already queued wait and go out
            once it is enabled again. Enabling starts a fresh failure count (see{" "}
            <a className={link} href="#delivery">
              delivery
            </a>
            ).
          </li>
          <li>
            <strong>Delivery log</strong>: each delivery, its event, its status (<C>pending</C>, <C>delivering</C>,{" "}
            <C>succeeded</C>, <C>failed</C>), its payload, and every attempt with its time, duration, status code or
            error, and the first 1 KB of your response; filter by event type and outcome. <strong>Resend</strong> queues
            that event to the endpoint again as a new delivery with the same <C>webhook-id</C> (a receiver that already
            processed it will see a duplicate, which is what its deduplication is for).
          </li>
          <li>
            <strong>Send test event</strong> sends a{" "}
            <a className={link} href="#webhook.test">
              <C>{WEBHOOK_TEST_EVENT}</C>
            </a>{" "}
            event to that one endpoint, whatever types it subscribed to: a quick check that it is reachable and verifies
            signatures.
          </li>
          <li>
            Deleting an endpoint deletes its delivery log; events not yet delivered to it are dropped. Every change to
            an endpoint is in the team&apos;s audit log.
          </li>
        </ul>
      </Section>

      <Section id="request" title="The request">
        <p>
          <C>POST</C> to the endpoint&apos;s URL with these headers:
        </p>
        <Table
          head={["header", "value"]}
          rows={[
            [<C key="h">content-type</C>, <C key="v">application/json</C>],
            [
              <C key="h">webhook-id</C>,
              <>
                The event&apos;s <C>id</C> (<C>msg_…</C>): the same at every attempt, every resend and every endpoint.
                Deduplicate on it.
              </>,
            ],
            [<C key="h">webhook-timestamp</C>, "Unix seconds when this attempt was sent (each retry has its own)."],
            [
              <C key="h">webhook-signature</C>,
              <>
                <C>v1,&lt;base64 HMAC-SHA256&gt;</C>, space-separated when a rotated secret still signs; see{" "}
                <a className={link} href="#signatures">
                  verifying
                </a>
                .
              </>,
            ],
            [<C key="h">user-agent</C>, <C key="v">Patchbay-Webhooks/1.0</C>],
          ]}
        />
        <p>The body is always this object, the same bytes at every attempt:</p>
        <Table
          head={["field", "meaning"]}
          rows={[
            [
              <C key="f">id</C>,
              <>
                Unique event id, equal to the <C>webhook-id</C> header.
              </>,
            ],
            [
              <C key="f">type</C>,
              <>
                One of the{" "}
                <a className={link} href="#events">
                  event types
                </a>
                .
              </>,
            ],
            [<C key="f">created_at</C>, "Unix seconds when the change happened (not when this attempt was sent)."],
            [<C key="f">team_id</C>, "The team the event belongs to."],
            [<C key="f">data</C>, "The objects of the change; its shape depends on the type."],
          ]}
        />
        <p>
          Objects inside <C>data</C> are exactly what the API returns for them: a <C>Connection</C> as{" "}
          <C>GET /v1/connections/{"{id}"}</C> returns it and an <C>AuthLinkStatus</C> as{" "}
          <C>GET /v1/connections/auth-links/{"{id}"}/status</C> does, with times in <strong>milliseconds</strong>{" "}
          (unlike the response of <C>POST /v1/connections</C>, which uses seconds); a <C>CreditBalance</C> as{" "}
          <C>GET /v1/credits</C> returns it, with <C>billing_period_end</C> in Unix seconds. See the{" "}
          <Link className={link} href="/docs/api#schemas/Connection">
            schemas
          </Link>{" "}
          in the API reference.
        </p>
      </Section>

      <Section id="events" title="Event types">
        <p>
          An endpoint receives the types it subscribed to. Every example below is one full body (pretty-printed here;
          the request body is compact JSON). Your receiver should ignore a type it does not know: new types may be
          added.
        </p>
        <Table
          head={["type", "when"]}
          rows={WEBHOOK_EVENT_TYPES.map((type) => [
            <a key="t" className={`${link} whitespace-nowrap font-mono text-[13px]`} href={`#${type}`}>
              {type}
            </a>,
            WEBHOOK_EVENT_DESCRIPTIONS[type],
          ])}
        />
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <div key={type}>
            <H3 id={type}>
              <code className="font-mono">{type}</code>
            </H3>
            <p className="mt-1">{WHEN[type]}</p>
            <Pre label={`${type} example`}>{pretty(exampleOf(type))}</Pre>
          </div>
        ))}
        <div>
          <H3 id={WEBHOOK_TEST_EVENT}>
            <code className="font-mono">{WEBHOOK_TEST_EVENT}</code>
          </H3>
          <p className="mt-1">
            Sent by <strong>Send test event</strong> to one endpoint, whatever types it subscribed to; it cannot be
            subscribed to, and nothing else sends it. <C>data</C>: <C>{"{endpoint_id, message}"}</C>.
          </p>
          <Pre label={`${WEBHOOK_TEST_EVENT} example`}>{pretty(testEvent)}</Pre>
        </div>
      </Section>

      <Section id="signatures" title="Verifying signatures">
        <p>
          Check the signature of every request before trusting it: anyone can POST to your URL. The scheme is{" "}
          <a className={link} href="https://www.standardwebhooks.com/">
            Standard Webhooks
          </a>
          :
        </p>
        <ol className="list-decimal space-y-1 pl-5">
          <li>
            The key is the <strong>base64-decoded</strong> part of the secret after <C>whsec_</C> (32 bytes).
          </li>
          <li>
            The signed content is <C>{"{webhook-id}.{webhook-timestamp}.{body}"}</C>: the two header values and the raw
            body, joined by dots.
          </li>
          <li>
            The signature is the base64 of HMAC-SHA256 of that content with that key, and <C>webhook-signature</C> is a
            space-separated list of <C>v1,&lt;signature&gt;</C> entries, one per secret that currently signs (two for{" "}
            {graceHours} h after a rotation). The request is genuine when any <C>v1</C> entry matches.
          </li>
        </ol>
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <strong>Use the raw body bytes</strong>, exactly as received. A body parsed and serialized again (another
            key order, other spacing or escapes) has a different signature.
          </li>
          <li>
            Compare in constant time, and reject a <C>webhook-timestamp</C> more than 5 minutes from your clock: an old
            request replayed is refused.
          </li>
          <li>
            Each attempt is signed afresh with its own timestamp, so a retry sent hours after the event verifies like
            the first attempt.
          </li>
        </ul>
        <H3>With the standardwebhooks package</H3>
        <Pre label="standardwebhooks verification">{STANDARDWEBHOOKS_SNIPPET}</Pre>
        <p className="text-sm">
          The same package exists for Python, Go, Ruby, PHP, Java, Rust and C# (
          <a className={link} href="https://github.com/standard-webhooks/standard-webhooks">
            standard-webhooks
          </a>
          ).
        </p>
        <H3>With node:crypto only</H3>
        <Pre label="node:crypto verification">{NODE_CRYPTO_SNIPPET}</Pre>
        <H3>A worked example</H3>
        <p className="text-sm">
          To test a verifier: with the made-up secret <C>{EXAMPLE_SECRET}</C>, the <C>{WEBHOOK_TEST_EVENT}</C> body
          above sent as this exact compact JSON and a <C>webhook-timestamp</C> of <C>{testTimestamp}</C>, the signature
          is the one below (computed by Patchbay&apos;s own signing code). Your verifier should accept it once its clock
          check is relaxed, and reject it after any change to the body.
        </p>
        <Pre label="signed example request" wrap>{`webhook-id: ${testEvent.id}
webhook-timestamp: ${testTimestamp}
webhook-signature: ${testSignature}

${testBody}`}</Pre>
      </Section>

      <Section id="delivery" title="Delivery and retries">
        <ul className="list-disc space-y-2 pl-5">
          <li>
            <strong>At least once.</strong> An event can arrive more than once (a retry after your 2xx was lost, a{" "}
            <strong>Resend</strong>). Its <C>webhook-id</C> is the same every time and at every endpoint, so record the
            ids you have handled and skip repeats.
          </li>
          <li>
            <strong>No order is promised</strong>, not even between the events of one change. Use <C>created_at</C> and
            the objects&apos; <C>updated_at</C>, or read the current state from the API when order matters.
          </li>
          <li>
            <strong>A 2xx answer is success</strong> and ends the delivery. Anything else is a failed attempt: any other
            status — <strong>3xx included: redirects are never followed</strong> — no answer within the timeout (
            <C>WEBHOOK_TIMEOUT_MS</C>, 10 s by default), a refused connection, a TLS or DNS error, or a host that now
            resolves to an address that is not allowed. Answer quickly and do slow work after answering.
          </li>
          <li>
            Every endpoint has its own queue: a slow or failing endpoint does not hold up the deliveries to the others.
          </li>
        </ul>
        <p>
          A failed attempt is retried after these delays, each counted from the end of the failed attempt. Jitter
          lengthens each delay by up to {jitterPercent} % (never shortens it), so retries of many deliveries do not
          arrive all at once. The times since the first attempt leave out the attempts&apos; own durations:
        </p>
        <Table
          head={["attempt", "delay before it", "since the first attempt", `with up to ${jitterPercent} % jitter`]}
          rows={retryRows}
        />
        <p>
          That is {attempts} attempts over about{" "}
          {(DEFAULT_RETRY_SCHEDULE_SECONDS.reduce((a, b) => a + b, 0) / 3600).toFixed(1)} h. After the last one fails,
          the delivery is marked <C>failed</C>; it stays in the delivery log, where <strong>Resend</strong> can send it
          again. <C>WEBHOOK_RETRY_SCHEDULE_SECONDS</C> replaces the schedule.
        </p>
        <p>
          <strong>An endpoint whose every attempt has failed for {disableDays} days straight is disabled</strong>{" "}
          (reason &ldquo;Every delivery attempt failed for {disableDays} days.&rdquo;): an event in the audit log, and a
          banner on the dashboard. Its queued deliveries wait; enable it again in Settings → Webhooks once it answers,
          and they go out. One successful attempt resets the count.
        </p>
      </Section>

      <Section id="urls" title="Which URLs are accepted">
        <p>Patchbay&apos;s servers make the requests, so an endpoint may not point into their own network:</p>
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <C>https://</C> only; no user name or password in the URL (the signature is the authentication), no{" "}
            <C>#fragment</C>, at most 2048 characters.
          </li>
          <li>
            The host must not be, or resolve to, a loopback (<C>localhost</C>, <C>127.0.0.0/8</C>, <C>::1</C>), private
            (<C>10.0.0.0/8</C>, <C>172.16.0.0/12</C>, <C>192.168.0.0/16</C>, <C>fc00::/7</C>), link-local (
            <C>169.254.0.0/16</C>, <C>fe80::/10</C>) or cloud metadata (<C>169.254.169.254</C>, <C>fd00:ec2::254</C>)
            address, nor a shared, multicast, documentation or reserved one. A host name is refused when any of its
            addresses is.
          </li>
          <li>
            Checked when the endpoint is saved (a name that does not resolve yet is accepted) and again at every
            delivery, which then connects to the very address that was checked: a DNS record changed later cannot
            redirect deliveries into a private network.
          </li>
          <li>
            <C>WEBHOOK_ALLOW_PRIVATE_URLS=1</C> lifts these rules, allowing <C>http://</C> and local receivers, for
            local development and tests only. The command line honours it too.
          </li>
        </ul>
      </Section>

      <Section id="credits" title="Credits events">
        <ul className="list-disc space-y-2 pl-5">
          <li>
            <C>credits.low</C>: the first charge in a billing period that leaves <C>credits_remaining</C> at or below{" "}
            <C>low_credits_percent</C> % of <C>credits_limit</C>.
          </li>
          <li>
            <C>credits.exhausted</C>: the first charge in a billing period that leaves <C>credits_remaining</C> at or
            below 0 (it can go below zero: a run that overshoots is not rolled back).
          </li>
          <li>
            Each is sent at most once per billing period. One charge that crosses both thresholds sends both,{" "}
            <C>credits.low</C> written first (delivery order is still not promised). A new billing period — the monthly
            renewal, or <C>credits renew</C> — re-arms both.
          </li>
          <li>
            The threshold is a whole percent from 0 to 100, <strong>10 by default</strong>, set by a team owner in{" "}
            <strong>Settings → Low-credits alert</strong> or from the command line; it applies from the next charge:
          </li>
        </ul>
        <Pre label="team set-low-credits">{`npm run --silent cli -- team set-low-credits --team team_… --percent 20
{"id":"team_…","low_credits_percent":20}`}</Pre>
      </Section>

      <Section id="configuration" title="Configuration">
        <Table
          head={["variable", "meaning"]}
          rows={[
            [
              <C key="v">WEBHOOK_RETRY_SCHEDULE_SECONDS</C>,
              <>
                The delays before each retry, in seconds, comma-separated (fractions allowed), each counted from the end
                of the failed attempt: <em>N</em> delays mean at most 1 + <em>N</em> attempts. Jitter adds up to{" "}
                {jitterPercent} % to each. Default{" "}
                <C className="break-all">{DEFAULT_RETRY_SCHEDULE_SECONDS.join(",")}</C>.
              </>,
            ],
            [
              <C key="v">WEBHOOK_TIMEOUT_MS</C>,
              <>
                How long one attempt may take, from connecting to the end of the answer; past it the attempt has failed.
                Default <C>10000</C>.
              </>,
            ],
            [
              <C key="v">WEBHOOK_ALLOW_PRIVATE_URLS</C>,
              <>
                <C>1</C>: accept <C>http://</C> and loopback or private receivers. Development and tests only. Unset by
                default.
              </>,
            ],
          ]}
        />
        <p>
          Every server instance runs a dispatcher over the shared database; each delivery is claimed by exactly one
          instance at a time, so several instances never send the same attempt twice.
        </p>
      </Section>
    </main>
  );
}
