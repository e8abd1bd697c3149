"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiKeysQuery, createApiKey, revokeApiKey, settingsKeys } from "@/lib/queries/settings";
import type { ApiKeyJson } from "@/lib/schemas/dashboard";
import { detailText } from "@/components/overview/format";
import { ErrorNote, SkeletonBlock } from "@/components/overview/section-states";
import { RevokeButton, RevokeDialog } from "@/components/ui/revoke";
import { Notice } from "@/components/settings/notice";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { LocalTime } from "@/components/time/local-time";

export function ApiKeysSection({ team, role, plan }: { team: string; role: "owner" | "member"; plan: string }) {
  if (plan !== "team") {
    return (
      <Notice title="API keys need the Team plan" testId="api-keys-plan-notice">
        This team is on the <span className="capitalize">{plan}</span> plan. The /v1 API authenticates with API keys,
        which owners create here on the Team plan; an owner can upgrade the team to create them. Keys the server&apos;s
        operator made from the command line work on any plan.
      </Notice>
    );
  }
  if (role !== "owner") {
    return (
      <Notice title="Only team owners manage API keys" testId="api-keys-owner-notice">
        API keys act for the whole team, so only owners can create, list and revoke them. Ask an owner of this team for
        a key, or to make you an owner.
      </Notice>
    );
  }
  return <OwnerApiKeys team={team} />;
}

function OwnerApiKeys({ team }: { team: string }) {
  const client = useQueryClient();
  const keys = useQuery(apiKeysQuery(team));
  const [name, setName] = useState("");
  const [created, setCreated] = useState<(ApiKeyJson & { key: string }) | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyJson | null>(null);
  const create = useMutation({
    mutationFn: (keyName: string) => createApiKey(team, keyName),
    onSuccess: (key) => {
      setCreated(key);
      setName("");
      // A background refetch: it never rejects (a failure shows in the query's own state).
      void client.invalidateQueries({ queryKey: settingsKeys.apiKeys(team) });
    },
  });
  const revoke = useMutation({
    mutationFn: (key: ApiKeyJson) => revokeApiKey(team, key.id),
    onSuccess: () => {
      setRevoking(null);
      // A background refetch: it never rejects (a failure shows in the query's own state).
      void client.invalidateQueries({ queryKey: settingsKeys.apiKeys(team) });
    },
  });

  return (
    <div className="space-y-4">
      <form
        className="flex flex-col gap-2 sm:flex-row sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) create.mutate(name.trim());
        }}
      >
        <label className="block flex-1 text-sm">
          <span className="font-medium">Key name</span>
          <input
            className="input mt-1"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={100}
            placeholder="e.g. Reporting backend"
            required
          />
        </label>
        <button type="submit" className="btn-primary" disabled={create.isPending || !name.trim()}>
          {create.isPending ? "Creating…" : "Create key"}
        </button>
      </form>
      {create.isError && (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-400">
          Could not create the key: {detailText(create.error)}
        </p>
      )}
      {created && <NewKey created={created} onDone={() => setCreated(null)} />}

      {keys.isPending ? (
        <SkeletonBlock className="h-24" />
      ) : keys.isError ? (
        <ErrorNote what="API keys" error={keys.error} onRetry={() => void keys.refetch()} />
      ) : keys.data.data.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          No API keys yet. Name one above to create it; integrations send it as{" "}
          <code className="font-mono text-xs">Authorization: Bearer &lt;key&gt;</code>.
        </p>
      ) : (
        <ScrollRegion label="API keys table">
          <table className="w-full min-w-[40rem] text-left text-sm" aria-label="API keys">
            <thead className="text-xs uppercase tracking-wide text-zinc-500 dark:text-zinc-400">
              <tr>
                <th className="py-2 pr-3 font-medium">Name</th>
                <th className="py-2 pr-3 font-medium">Prefix</th>
                <th className="py-2 pr-3 font-medium">Created by</th>
                <th className="py-2 pr-3 font-medium">Created</th>
                <th className="py-2 pr-3 font-medium">Last used</th>
                <th className="py-2 pr-3 font-medium">Status</th>
                <th className="py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {keys.data.data.map((k) => (
                <tr key={k.id} data-key-prefix={k.prefix}>
                  <td className="py-2 pr-3 font-medium">
                    {k.name ?? <span className="text-zinc-500 dark:text-zinc-400">Unnamed</span>}
                  </td>
                  <td className="py-2 pr-3 font-mono text-xs">{k.prefix}…</td>
                  <td className="py-2 pr-3">{k.created_by.email}</td>
                  <td className="py-2 pr-3 whitespace-nowrap">
                    <LocalTime seconds={k.created_at} />
                  </td>
                  <td className="py-2 pr-3 whitespace-nowrap">
                    {k.last_used_at ? <LocalTime seconds={k.last_used_at} /> : "Never"}
                  </td>
                  <td className="py-2 pr-3 whitespace-nowrap">
                    {k.revoked_at ? (
                      <span className="rounded-full bg-zinc-100 px-2 py-0.5 text-xs text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300">
                        Revoked <LocalTime seconds={k.revoked_at} />
                      </span>
                    ) : (
                      <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300">
                        Active
                      </span>
                    )}
                  </td>
                  <td className="py-2 text-right">
                    {!k.revoked_at && (
                      <RevokeButton label={`Revoke ${k.name ?? k.prefix}`} onClick={() => setRevoking(k)} />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      <RevokeDialog
        target={revoking}
        title={`Revoke ${revoking?.name ?? revoking?.prefix ?? "key"}?`}
        confirmLabel="Revoke key"
        revoke={revoke}
        onCancel={() => setRevoking(null)}
      >
        <p>
          Requests with the key <span className="font-mono">{revoking?.prefix}…</span> are refused with 401 from now on.
          This cannot be undone.
        </p>
      </RevokeDialog>
    </div>
  );
}

function NewKey({ created, onDone }: { created: ApiKeyJson & { key: string }; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div
      data-testid="new-api-key"
      className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-800 dark:bg-amber-950/40"
    >
      <p role="status" className="font-medium text-amber-900 dark:text-amber-200">
        Copy the key “{created.name}” now: it is shown only this once and cannot be recovered.
      </p>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-center">
        <code
          data-testid="new-api-key-value"
          className="block flex-1 break-all rounded-md bg-white px-3 py-2 font-mono text-xs text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100"
        >
          {created.key}
        </code>
        <div className="flex gap-2">
          <button
            type="button"
            className="btn-secondary"
            onClick={() => {
              // A refused clipboard changes nothing here: the key stays on screen to copy by hand.
              void navigator.clipboard
                .writeText(created.key)
                .catch(() => {})
                .then(() => setCopied(true));
            }}
          >
            {copied ? "Copied" : "Copy"}
          </button>
          <button type="button" className="btn-secondary" onClick={onDone}>
            Done
          </button>
        </div>
      </div>
    </div>
  );
}
