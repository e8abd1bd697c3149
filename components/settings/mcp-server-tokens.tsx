"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  createMcpToken,
  mcpTokensQuery,
  revokeMcpToken,
  settingsKeys,
  type CreatedMcpToken,
} from "@/lib/queries/settings";
import type { McpServerJson, McpTokenJson } from "@/lib/schemas/dashboard";
import { detailText } from "@/components/overview/format";
import { LocalTime } from "@/components/time/local-time";
import { ErrorNote, SkeletonBlock } from "@/components/overview/section-states";
import { CopyField } from "@/components/ui/copy-field";
import { RevokeButton, RevokeDialog } from "@/components/ui/revoke";

/**
 * A server's bearer tokens: create (shown once), list, revoke. Members who cannot manage the server
 * only see the list.
 */
export function McpServerTokens({ team, server }: { team: string; server: McpServerJson }) {
  const client = useQueryClient();
  const tokens = useQuery(mcpTokensQuery(team, server.id));
  const [name, setName] = useState("");
  const [created, setCreated] = useState<CreatedMcpToken | null>(null);
  const [revoking, setRevoking] = useState<McpTokenJson | null>(null);
  const refresh = () => {
    // A background refetch: it never rejects (a failure shows in the query's own state).
    void client.invalidateQueries({ queryKey: settingsKeys.mcpTokens(team, server.id) });
    // The server's active-token count lives in the servers list.
    void client.invalidateQueries({ queryKey: settingsKeys.mcpServers(team), exact: true });
  };
  const create = useMutation({
    mutationFn: (tokenName: string) => createMcpToken(team, server.id, tokenName),
    onSuccess: (token) => {
      setCreated(token);
      setName("");
      refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (token: McpTokenJson) => revokeMcpToken(team, server.id, token.id),
    onSuccess: () => {
      setRevoking(null);
      refresh();
    },
  });

  return (
    <div className="space-y-3">
      {server.can_manage && (
        <form
          className="flex flex-col gap-2 sm:flex-row sm:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate(name.trim());
          }}
        >
          <label className="block flex-1 text-sm">
            <span className="font-medium">Token name (optional)</span>
            <input
              className="input mt-1"
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={100}
              placeholder="e.g. Claude Desktop on my laptop"
            />
          </label>
          <button type="submit" className="btn-primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create token"}
          </button>
        </form>
      )}
      {create.isError && (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-400">
          Could not create the token: {detailText(create.error)}
        </p>
      )}
      {created && <NewMcpToken created={created} server={server} onDone={() => setCreated(null)} />}

      {tokens.isPending ? (
        <SkeletonBlock className="h-12" />
      ) : tokens.isError ? (
        <ErrorNote what="tokens" error={tokens.error} onRetry={() => void tokens.refetch()} />
      ) : tokens.data.data.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          No tokens yet.{" "}
          {server.can_manage
            ? "Create one above; an MCP client sends it as"
            : "Its owner can create one; an MCP client sends it as"}{" "}
          <code className="font-mono text-xs">Authorization: Bearer &lt;token&gt;</code>.
        </p>
      ) : (
        <ul
          className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
          aria-label={`Tokens of ${server.name}`}
        >
          {tokens.data.data.map((t) => (
            <li
              key={t.id}
              data-token-prefix={t.prefix}
              className="flex flex-col gap-x-4 gap-y-1 px-3 py-2 text-sm sm:flex-row sm:items-center"
            >
              <div className="min-w-0 flex-1 [overflow-wrap:anywhere]">
                <p className="truncate font-medium">
                  {t.name ?? <span className="text-zinc-500 dark:text-zinc-400">Unnamed</span>}{" "}
                  <span className="font-mono text-xs font-normal text-zinc-500 dark:text-zinc-400">{t.prefix}…</span>
                </p>
                <p className="text-xs text-zinc-500 dark:text-zinc-400">
                  {t.created_by ? `By ${t.created_by.email}` : "Creator left the team"} · created{" "}
                  <LocalTime seconds={t.created_at} /> ·{" "}
                  {t.last_used_at ? (
                    <>
                      last used <LocalTime seconds={t.last_used_at} />
                    </>
                  ) : (
                    "never used"
                  )}
                </p>
              </div>
              <div className="flex shrink-0 items-center gap-4">
                {t.revoked_at ? (
                  <span className="rounded-full bg-zinc-100 px-2 py-0.5 text-xs text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300">
                    Revoked <LocalTime seconds={t.revoked_at} />
                  </span>
                ) : (
                  <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300">
                    Active
                  </span>
                )}
                {!t.revoked_at && server.can_manage && (
                  <RevokeButton label={`Revoke token ${t.name ?? t.prefix}`} onClick={() => setRevoking(t)} />
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <RevokeDialog
        target={revoking}
        title={`Revoke ${revoking?.name ?? revoking?.prefix ?? "token"}?`}
        confirmLabel="Revoke token"
        revoke={revoke}
        onCancel={() => setRevoking(null)}
      >
        <p>
          MCP clients using <span className="font-mono">{revoking?.prefix}…</span> on {server.name} are refused from now
          on. This cannot be undone.
        </p>
      </RevokeDialog>
    </div>
  );
}

type Client = "claude" | "http";

/**
 * Claude Desktop speaks stdio only: mcp-remote bridges it, with the header in an env variable (a
 * space inside args breaks on Windows).
 */
function clientConfig(client: Client, server: McpServerJson, token: string): string {
  const key = `patchbay-${
    server.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "mcp"
  }`;
  const config =
    client === "claude"
      ? {
          mcpServers: {
            [key]: {
              command: "npx",
              args: ["-y", "mcp-remote", server.mcp_url, "--header", "Authorization:${PATCHBAY_MCP_AUTH}"],
              env: { PATCHBAY_MCP_AUTH: `Bearer ${token}` },
            },
          },
        }
      : { mcpServers: { [key]: { type: "http", url: server.mcp_url, headers: { Authorization: `Bearer ${token}` } } } };
  return JSON.stringify(config, null, 2);
}

function NewMcpToken({
  created,
  server,
  onDone,
}: {
  created: CreatedMcpToken;
  server: McpServerJson;
  onDone: () => void;
}) {
  const [client, setClient] = useState<Client>("claude");
  const [copied, setCopied] = useState<"no" | "yes" | "refused">("no");
  const snippet = clientConfig(client, server, created.token);
  return (
    <div
      data-testid="new-mcp-token"
      className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-800 dark:bg-amber-950/40"
    >
      <p role="status" className="font-medium text-amber-900 dark:text-amber-200">
        Copy the token now: it is shown only this once and cannot be recovered.
      </p>
      <CopyField label="MCP token" value={created.token} />
      <div>
        <div className="mb-1 flex flex-wrap items-center justify-between gap-2">
          <span className="font-medium" id={`snippet-${created.id}`}>
            Client configuration
          </span>
          <div
            className="flex rounded-lg border border-zinc-300 p-0.5 text-xs dark:border-zinc-700"
            role="group"
            aria-label="Client"
          >
            {(
              [
                ["claude", "Claude Desktop"],
                ["http", "Cursor, VS Code, Inspector"],
              ] as const
            ).map(([value, label]) => (
              <button
                key={value}
                type="button"
                aria-pressed={client === value}
                onClick={() => {
                  setClient(value);
                  setCopied("no");
                }}
                className="rounded-md px-2 py-1 aria-pressed:bg-indigo-600 aria-pressed:text-white focus-visible:outline focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                {label}
              </button>
            ))}
          </div>
        </div>
        <pre
          aria-labelledby={`snippet-${created.id}`}
          data-testid="mcp-client-config"
          className="max-h-56 overflow-auto rounded-md bg-white p-3 font-mono text-xs text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100"
        >
          {snippet}
        </pre>
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          {client === "claude"
            ? "Paste into claude_desktop_config.json and restart Claude Desktop."
            : "For clients that speak Streamable HTTP and take headers; in the MCP Inspector pick Streamable HTTP, this URL and the Authorization header."}
        </p>
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <button
          type="button"
          className="btn-secondary"
          onClick={() => {
            // Both outcomes are handled: the promise can't reject.
            void navigator.clipboard.writeText(snippet).then(
              () => setCopied("yes"),
              () => setCopied("refused"),
            );
          }}
        >
          {copied === "yes"
            ? "Configuration copied"
            : copied === "refused"
              ? "Copy refused: select the text"
              : "Copy configuration"}
        </button>
        <button type="button" className="btn-secondary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
