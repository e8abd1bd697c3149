import type { Metadata } from "next";
import Link from "next/link";
import { appUrl } from "@/lib/config/env";
import { AI_CLIENTS, HEADER_CLIENTS_NOTE, withUrl } from "@/lib/mcp/ai-clients";
import { C, link, Pre, Section } from "@/components/docs/doc-parts";
import { DocsBar } from "@/components/docs/docs-bar";
import { CopyField } from "@/components/ui/copy-field";
import { CopyButton } from "@/components/ui/copy-button";

export const metadata: Metadata = { title: "Add Patchbay to your AI client · Patchbay" };
// The URL shown is this server's APP_URL, read per request (not when the app was built).
export const dynamic = "force-dynamic";

// The clients and their steps come from lib/mcp/ai-clients (Settings → MCP servers reads the same
// list); this page adds what is the same for all of them: the sign-in, static tokens, narrowing.

const NOTE = [
  "rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900",
  "dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-200",
].join(" ");

const AUTH_SPEC = "https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization";

/** http:// or a loopback or private host: a client running on another company's servers cannot reach it. */
function onlyLocal(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return (
    protocol !== "https:" ||
    hostname === "localhost" ||
    hostname.endsWith(".localhost") ||
    /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(hostname) ||
    hostname === "[::1]"
  );
}

export default function McpClientsDocsPage() {
  const base = appUrl();
  const mcpUrl = `${base}/mcp`;
  const contents: [string, string][] = [
    ["url", "Paste this URL"],
    ...AI_CLIENTS.map((c): [string, string] => [c.id, c.name]),
    ["other-clients", "Any other client"],
    ["sign-in", "How sign-in works"],
    ["static-tokens", "Static tokens"],
    ["narrowing", "Narrowing a request to some connections"],
  ];
  const vendorClients = AI_CLIENTS.filter((c) => c.reachesFrom === "vendor").map((c) => c.name);
  const deviceClients = AI_CLIENTS.filter((c) => c.reachesFrom === "device").map((c) => c.name);

  return (
    <main className="mx-auto max-w-4xl px-4 py-6 sm:px-6">
      <DocsBar current="/docs/mcp" />
      <h1 className="mt-8 text-3xl font-semibold tracking-tight">Add Patchbay to your AI client</h1>
      <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">
        The MCP endpoint, by its URL ·{" "}
        <Link className={link} href="/docs/operations">
          Operations and approvals
        </Link>{" "}
        ·{" "}
        <a className={link} href={AUTH_SPEC}>
          MCP authorization (2025-11-25)
        </a>
      </p>
      <p className="mt-4 text-zinc-700 dark:text-zinc-300">
        An AI client that speaks the Model Context Protocol reaches your team&apos;s connections through one URL. A
        client that supports MCP sign-in needs nothing else: it sends you to Patchbay, you sign in and choose what it
        may use, and it keeps access until you revoke it. A client that only takes a header uses a static token instead.
      </p>

      <nav aria-label="On this page" className="mt-6 text-sm">
        <h2 className="text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">On this page</h2>
        <ol className="mt-2 grid list-inside list-decimal gap-x-6 gap-y-1 sm:grid-cols-2">
          {contents.map(([id, title]) => (
            <li key={id}>
              <a className={link} href={`#${id}`}>
                {title}
              </a>
            </li>
          ))}
        </ol>
      </nav>

      <Section id="url" title="Paste this URL">
        <div data-testid="mcp-url" className="max-w-xl">
          <CopyField label="MCP URL" value={mcpUrl} />
        </div>
        <p>
          It is the same for every team and every person: who is calling, and which team, MCP server and connections
          they reach, is decided when they sign in (or by the token they send), never by the URL.
        </p>
        {onlyLocal(base) && (
          <p role="note" className={NOTE}>
            This server&apos;s address (<C>APP_URL</C> = <C>{base}</C>) is not a public https address. Clients that run
            on your computer ({deviceClients.join(", ")}) can reach it; {vendorClients.join(", ")} connect from their
            makers&apos; servers and need Patchbay at a public https address.
          </p>
        )}
      </Section>

      {AI_CLIENTS.map((client) => (
        <Section key={client.id} id={client.id} title={client.name}>
          <p>{client.about}</p>
          {client.snippet && (
            <div>
              <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
                <span className="font-medium text-zinc-900 dark:text-zinc-100">{client.snippet.label}</span>
                <CopyButton text={withUrl(client.snippet.code, mcpUrl)} what={client.snippet.label} />
              </div>
              <Pre label={client.snippet.label}>{withUrl(client.snippet.code, mcpUrl)}</Pre>
            </div>
          )}
          <p className="text-sm">
            {client.reachesFrom === "vendor"
              ? "Its requests come from its maker's servers, not from your computer, so Patchbay must be at a public " +
                "https address."
              : "Its requests come from your computer."}{" "}
            Its own steps:{" "}
            <a className={link} href={client.docs.url}>
              {client.docs.label}
            </a>
            .
          </p>
        </Section>
      ))}

      <Section id="other-clients" title="Any other client">
        <p>
          A client that supports MCP sign-in (the{" "}
          <a className={link} href={AUTH_SPEC}>
            authorization
          </a>{" "}
          part of the specification) works the same way: give it the URL, and sign in when it asks.{" "}
          {HEADER_CLIENTS_NOTE} See{" "}
          <a className={link} href="#static-tokens">
            static tokens
          </a>
          .
        </p>
      </Section>

      <Section id="sign-in" title="How sign-in works">
        <p>The client does the protocol work; what you see is Patchbay&apos;s sign-in and a consent page.</p>
        <ol className="list-decimal space-y-2 pl-5">
          <li>
            <strong>Discovery.</strong> The client calls the URL without a token and gets <C>401</C> with a{" "}
            <C>WWW-Authenticate</C> header naming Patchbay&apos;s protected-resource metadata; that document names
            Patchbay as the authorization server, whose own metadata lists its endpoints:
            <ul className="mt-1 space-y-1">
              <li>
                Protected resource metadata (RFC 9728):{" "}
                <C className="break-all">{`${base}/.well-known/oauth-protected-resource/mcp`}</C>
              </li>
              <li>
                Authorization server metadata (RFC 8414):{" "}
                <C className="break-all">{`${base}/.well-known/oauth-authorization-server`}</C>
              </li>
            </ul>
          </li>
          <li>
            <strong>The client introduces itself</strong>, with a Client ID Metadata Document (its client id is an https
            URL of a small JSON document with its name and where to send you back) or by registering itself (Dynamic
            Client Registration). Nothing for you to do or paste.
          </li>
          <li>
            <strong>Sign in and consent.</strong> Your browser opens{" "}
            <C className="break-all">{`${base}/oauth/authorize`}</C>. Once you are signed in, a consent page names the
            client and asks, every time:
            <ul className="mt-1 list-disc space-y-1 pl-5">
              <li>which of your teams it works in (the first one you joined is preselected);</li>
              <li>
                which MCP server it acts through: a new one (the default), named after the client, owned by you and
                private to you, or an existing one;
              </li>
              <li>which connections that server may use (those you can see are offered);</li>
              <li>
                its{" "}
                <Link className={link} href="/docs/operations#write-policies">
                  write policy
                </Link>
                : <strong>off by default</strong>, so the client can only read. Writes that wait for someone&apos;s{" "}
                <Link className={link} href="/docs/operations#approvals">
                  approval
                </Link>{" "}
                can be chosen too; <C>allowed</C> (writes run at once) only by a team owner.
              </li>
            </ul>
            <strong>Allow</strong> sends you back to the client, which finishes on its own; <strong>Deny</strong> tells
            the client you refused, and it gets nothing.
          </li>
          <li>
            <strong>Tokens.</strong> The client gets an access token that lasts 1 hour and a refresh token. Each refresh
            gives it a new pair and the old refresh token stops working at once; if an old one is ever presented again,
            Patchbay ends the whole grant, as it would for a stolen token.
          </li>
        </ol>
        <p>
          <strong>The grant acts as you on that MCP server</strong>, exactly as a static token of that server created by
          you would: it reaches at most the server&apos;s connections, writes follow the server&apos;s write policy
          (approval requests are filed in your name), every call is logged with the server and you, and credits come
          from the team&apos;s balance.
        </p>
        <p>
          <strong>Revoking.</strong> Under <strong>Settings → MCP servers → Connected apps</strong> (the apps connected
          to the team&apos;s servers) or <strong>Settings → Your connected apps</strong> (the apps you allowed); the
          client&apos;s next call is refused and it has to ask you again. A grant also ends when you leave the team or
          its MCP server is deleted. Removing the connector inside the client does not always tell Patchbay: revoke it
          here to be sure.
        </p>
      </Section>

      <Section id="static-tokens" title="Static tokens">
        <p>
          For clients that cannot sign in but can send a header (scripts, agents you run yourself, older clients):
          create an MCP server in <strong>Settings → MCP servers</strong> with the connections and write policy it
          needs, then choose <strong>Tokens</strong> and <strong>Create token</strong> on it. The token (<C>pbm_…</C>)
          is shown once; the dialog also offers a ready configuration for Claude Desktop and for HTTP clients. Send it
          with every request:
        </p>
        <Pre label="Authorization header">{"Authorization: Bearer pbm_…"}</Pre>
        <p>
          Keep it out of files you share: VS Code can ask for it once and store it (an <C>inputs</C> entry), Cursor can
          read it from an environment variable:
        </p>
        <p className="text-sm font-medium text-zinc-900 dark:text-zinc-100">VS Code, .vscode/mcp.json</p>
        <Pre label="VS Code mcp.json with a token">{`{
  "inputs": [
    { "type": "promptString", "id": "patchbay-token", "description": "Patchbay MCP token", "password": true }
  ],
  "servers": {
    "patchbay": {
      "type": "http",
      "url": "${mcpUrl}",
      "headers": { "Authorization": "Bearer \${input:patchbay-token}" }
    }
  }
}`}</Pre>
        <p className="text-sm font-medium text-zinc-900 dark:text-zinc-100">Cursor, mcp.json</p>
        <Pre label="Cursor mcp.json with a token">{`{
  "mcpServers": {
    "patchbay": {
      "url": "${mcpUrl}",
      "headers": { "Authorization": "Bearer \${env:PATCHBAY_MCP_TOKEN}" }
    }
  }
}`}</Pre>
        <p>
          The endpoint speaks Streamable HTTP without sessions: every JSON-RPC message is a <C>POST</C> carrying its
          token, and answers are plain JSON (no stream to hold open). A token works until it is revoked there or its
          server is deleted.
        </p>
      </Section>

      <Section id="narrowing" title="Narrowing a request to some connections">
        <p>A request can ask for fewer connections than its MCP server allows, with a header or a query parameter:</p>
        <Pre label="Narrowing by header or query" wrap>{`X-Service-Context: {"connection_ids": ["conn_…", "conn_…"]}

${mcpUrl}?connection_ids=conn_…,conn_…`}</Pre>
        <ul className="list-disc space-y-1 pl-5">
          <li>
            It only narrows: the server&apos;s saved connections are the most a request reaches, whoever sends it (a
            static token or a signed-in client).
          </li>
          <li>An empty list (an empty array, or an empty value) allows no connection for that request.</li>
          <li>With neither, the saved connections apply; with both, the header wins.</li>
          <li>
            A malformed header is refused with <C>400</C> and a sentence saying what to send, never read as no
            narrowing.
          </li>
        </ul>
        <p>
          Clients you only give a URL (claude.ai, ChatGPT) send no custom header: choose their connections on the
          consent page, or change the MCP server&apos;s connections later in Settings → MCP servers.{" "}
          <C>find_operations</C> names the <C>connection_ids</C> each operation can run on within the request&apos;s
          connections (see{" "}
          <Link className={link} href="/docs/operations#catalogue">
            the catalogue
          </Link>
          ).
        </p>
      </Section>
    </main>
  );
}
