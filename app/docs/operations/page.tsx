import type { Metadata } from "next";
import { availableOperations, operationJson } from "@/lib/operations/operation-json";
import { WRITE_POLICIES, WRITE_POLICY_DESCRIPTIONS } from "@/lib/schemas/write-policy";
import { APPROVAL_STATUS_VALUES } from "@/lib/schemas/approval-statuses";
import { C, H3, link, Pre, Section, Table } from "@/components/docs/doc-parts";
import Link from "next/link";
import { plural } from "@/lib/text/plural";
import { DocsBar } from "@/components/docs/docs-bar";

export const metadata: Metadata = { title: "Operations and approvals · Patchbay" };

// Every table on this page is read from the catalogue (lib/operations) and the approval
// settings (lib/approvals) at build time, so the page cannot drift from what /mcp runs.

const STATUS_MEANING: Record<(typeof APPROVAL_STATUS_VALUES)[number], string> = {
  pending: "Filed; waiting for a team member. Reads expired once expires_at has passed.",
  running: "Approved; the write is running now (one run, whoever clicked).",
  rejected: "A member rejected it, with an optional note. Nothing ran; nothing was charged.",
  expired: "Nobody decided within APPROVAL_TTL_MINUTES. Nothing ran; nothing was charged.",
  cancelled:
    "The permission it was filed under went away before it ran: its server's write policy turned off, its server, token or connection removed, or its requester left the team. error says which. Nothing ran; nothing was charged.",
  succeeded: "Approved and run; result holds what the provider answered.",
  failed:
    "Approved, but the run failed (the provider refused it, the connection was deleted, no credits left); error says why.",
};

const DISCOVERY = `// 1. What can this session do about campaigns?
find_operations({ "query": "pause campaign" })
→ { "operations": [{ "id": "google_ads.campaign.pause", "kind": "write", "requires_approval": true,
                     "credits": 1, "connection_types": ["gads"], "connection_ids": ["conn_…"], … }] }

// 2. Its inputs (JSON Schema) and an example
get_operation_inputs({ "operation_id": "google_ads.campaign.pause" })

// 3a. A read runs at once
run_operation({ "operation_id": "ga4.run_report", "connection_id": "conn_…", "input": { … } })

// 3b. A write goes through the server's write policy
run_write_operation({ "operation_id": "google_ads.campaign.pause", "connection_id": "conn_…", "input": { … } })
→ { "approval_id": "apr_…", "status": "pending", "summary": "Pause Google Ads campaign …",
    "approve_url": "https://…/approvals/apr_…", "expires_at": 1796083200 }

// 4. Later: what became of it
get_operation_result({ "approval_id": "apr_…" })
→ { "approval_id": "apr_…", "status": "succeeded", "result": { … } }`;

export default function OperationsDocsPage() {
  const operations = availableOperations().map(operationJson);
  const writes = operations.filter((op) => op.kind === "write");
  return (
    <main className="mx-auto max-w-5xl px-4 py-6 sm:px-6">
      <DocsBar current="/docs/operations" />
      <h1 className="mt-8 text-3xl font-semibold tracking-tight">Operations and approvals</h1>
      <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">
        {plural(operations.length, "operation")} ({plural(writes.length, "write")}) an agent reaches through the MCP
        endpoint ·{" "}
        <Link className={link} href="/docs/api">
          API reference
        </Link>{" "}
        ·{" "}
        <Link className={link} href="/docs/webhooks">
          Webhooks
        </Link>
      </p>

      <Section id="catalogue" title="One catalogue, found by intent">
        <p>
          Every read and write Patchbay can run on a connected platform is one entry of the operations catalogue: an id
          such as <C>ga4.run_report</C>, the connection types it runs on, its input, its price in credits, and for a
          write whether a person must approve it. An agent is not handed every operation as a tool (a context full of
          tool schemas costs every call and makes models choose badly): it gets <C>list_connections</C>, the direct read
          tools, and five discovery tools, at most 25 tools in all.
        </p>
        <Table
          head={["Tool", "What it does"]}
          rows={[
            [
              <C key="t">find_operations</C>,
              "Searches the operations this request's connections can run, by words of intent; no query lists them all. Each result names the connection_ids that can run it.",
            ],
            [
              <C key="t">get_operation_inputs</C>,
              "An operation's input as JSON Schema (connection_id is passed beside it) and an example.",
            ],
            [
              <C key="t">run_operation</C>,
              "Runs a read (or a write that needs no approval on a server whose policy allows writes) and returns its result.",
            ],
            [
              <C key="t">run_write_operation</C>,
              "Runs a write under the server's write policy: refused, filed for approval, or run at once.",
            ],
            [<C key="t">get_operation_result</C>, "The status of a filed write and, once it ran, its result or error."],
          ]}
        />
        <Pre label="A discovery session">{DISCOVERY}</Pre>
        <p>
          Every run goes through the same framework, whoever asks: the connection must be in the request&apos;s scope
          and of a type the operation runs on, the input must pass its schema (each failing field is named), the team
          must have credits left, OAuth credentials are refreshed when near expiry, and reads are answered from a short
          cache. Each run is one operation log and one ledger entry. A successful write drops the cached reads of its
          connection in every instance, so the next read sees it. Bad input never reaches a provider: it is a tool error
          with a sentence saying what to change.
        </p>
      </Section>

      <Section id="write-policies" title="Write policies">
        <p>
          Each MCP server has a write policy, set when it is created (<C>mcp create --writes</C>) and changed in{" "}
          <em>Settings → MCP servers</em>. It decides what <C>run_write_operation</C> does:
        </p>
        <Table
          head={["Policy", "Label in Settings", "What happens"]}
          rows={WRITE_POLICIES.map((p) => [
            <C key="p">{p}</C>,
            WRITE_POLICY_DESCRIPTIONS[p].label,
            WRITE_POLICY_DESCRIPTIONS[p].consequence,
          ])}
        />
        <p>
          The server&apos;s owner or a team owner may switch between <C>off</C> and <C>approval</C>; only a team owner
          may choose <C>allowed</C>. Every change is in the audit log.
        </p>
      </Section>

      <Section id="approvals" title="Approvals">
        <p>
          Under <C>approval</C>, <C>run_write_operation</C> checks the request completely (scope, connection type,
          input), reads the object&apos;s current state when the operation can, and files a request: the operation, the
          connection and its account, the exact input, a plain-language summary, the before-state, and the MCP server
          and user who asked. The agent gets its id, the summary, the <C>approve_url</C> to show the user, and{" "}
          <C>expires_at</C>. Any member of the team sees it on the <em>Approvals</em> page (the navigation counts the
          pending ones) and approves or rejects it with a note; the command line does the same with{" "}
          <C>approval approve --id ID --user USER_ID</C> and <C>approval reject</C>. A request on a private connection
          is its owner&apos;s alone: other members see only that it exists (its status and the connection&apos;s type)
          and cannot decide it. A team can also forbid approving your own request (Settings → MCP servers → Approvals);
          rejecting it stays possible.
        </p>
        <p>
          Approving runs the write once, on the server, at that moment: of any number of concurrent approvals (double
          clicks, retries, several instances, the command line) exactly one runs it and the others are told it was
          already approved (HTTP 409). Its log carries <C>metadata.approval_id</C> and <C>metadata.approved_by</C>, and
          it is charged like any run. A rejection or an expiry runs nothing and charges nothing. Requests expire after{" "}
          <C>APPROVAL_TTL_MINUTES</C> (default 60); an expiry is acted on within 15 seconds.
        </p>
        <p>
          A request is decided under the permissions of the moment it is approved, not those it was filed under.
          Approving checks again that its server still exists and allows writes, that the token that filed it is not
          revoked, that its connection still exists and is still among the server&apos;s permissions and usable by the
          member who asked, and that this member is still in the team; if not, it is <C>cancelled</C> with the reason
          and the approver is told why (HTTP 409). Turning a server&apos;s writes off, deleting it, revoking the token,
          taking the connection off the server or deleting it, or removing the member cancels their pending requests at
          once. <C>get_operation_result</C> answers only the MCP server that filed the request.
        </p>
        <H3>Statuses</H3>
        <Table
          head={["Status", "Meaning"]}
          rows={APPROVAL_STATUS_VALUES.map((s) => [<C key="s">{s}</C>, STATUS_MEANING[s]])}
        />
        <H3>Routing approvals to Slack</H3>
        <p>
          Subscribe a webhook endpoint to <C>approval.requested</C> and <C>approval.resolved</C> (
          <Link className={link} href="/docs/webhooks#events">
            event types
          </Link>
          ) and post the summary and <C>approve_url</C> to a channel.
        </p>
      </Section>

      <Section id="reference" title="The catalogue">
        <p>
          Credits are charged when a run reaches the provider and answers; a read answered from the cache costs nothing.
        </p>
        <Table
          head={["Operation", "Kind", "Runs on", "Credits", "Input"]}
          rows={operations.map((op) => [
            <span key="id" id={`op-${op.id}`}>
              <C>{op.id}</C>
              <span className="block text-xs text-zinc-500 dark:text-zinc-400">{op.title}</span>
            </span>,
            op.kind === "write"
              ? op.requires_approval
                ? "write · approval"
                : "write"
              : op.tool_name
                ? `read · tool ${op.tool_name}`
                : "read",
            op.connection_types.map((t) => t.name).join(", "),
            String(op.credits),
            op.fields.length ? (
              <span key="f" className="text-xs">
                {op.fields.map((f, i) => (
                  <span key={f.name}>
                    {i > 0 && ", "}
                    <C>{f.name}</C>
                    {f.required ? "" : "?"}
                  </span>
                ))}
              </span>
            ) : (
              "—"
            ),
          ])}
        />
      </Section>
    </main>
  );
}
