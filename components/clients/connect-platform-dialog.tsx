"use client";

import { useMemo, useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import { ErrorNote } from "@/components/ui/error-note";
import { AuthLinkResult } from "@/components/auth-links/auth-link-result";
import { useConnectionTypes } from "@/lib/queries/connections";
import { useCreateAuthLink, type CreatedAuthLink } from "@/lib/queries/auth-links";
import { useRefreshClients } from "@/lib/queries/clients";

/**
 * *Connect another platform*: an auth link for this client's external_id (none for the No client
 * group), through the same creation and live status as the Auth links page. The platforms the
 * client has no connection of yet come first.
 */
export function ConnectPlatformDialog({
  teamId,
  externalId,
  connectedTypes,
  open,
  onClose,
}: {
  teamId: string;
  externalId: string | null;
  connectedTypes: string[];
  open: boolean;
  onClose: () => void;
}) {
  const types = useConnectionTypes(teamId);
  const create = useCreateAuthLink(teamId);
  const refreshClients = useRefreshClients(teamId);
  const [result, setResult] = useState<{ link: CreatedAuthLink; type: string } | null>(null);
  const [chosen, setChosen] = useState("");
  const { lacking, has } = useMemo(() => {
    const oauth = (types.data ?? []).filter((t) => t.auth_methods.includes("oauth"));
    const connected = new Set(connectedTypes);
    return { lacking: oauth.filter((t) => !connected.has(t.type)), has: oauth.filter((t) => connected.has(t.type)) };
  }, [types.data, connectedTypes]);
  const selected = chosen || lacking[0]?.type || has[0]?.type || "";
  const nameOf = (t: string) => types.data?.find((x) => x.type === t)?.name ?? t;
  const close = () => {
    setResult(null);
    setChosen("");
    create.reset();
    onClose();
  };
  const who = externalId === null ? "an account without a client" : externalId;

  return (
    <Dialog open={open} onClose={close} title="Connect another platform" className="max-w-2xl">
      {result ? (
        <div className="space-y-4">
          <AuthLinkResult teamId={teamId} link={result.link} typeName={nameOf(result.type)} />
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Send it to whoever owns the account. The connection it makes carries{" "}
            {externalId === null ? "no external_id" : <code className="break-all">external_id {externalId}</code>}.
          </p>
          <div className="flex justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={() => setResult(null)}>
              Another platform
            </button>
            <button type="button" className="btn-primary" onClick={close}>
              Done
            </button>
          </div>
        </div>
      ) : types.isError ? (
        <ErrorNote error={types.error} title="The connection types could not be loaded." />
      ) : types.isPending ? (
        <div className="h-24 animate-pulse rounded-lg bg-zinc-100 dark:bg-zinc-800" />
      ) : lacking.length + has.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          No type can connect through OAuth on this server: configure a provider&apos;s OAuth app first.
        </p>
      ) : (
        <form
          className="space-y-4 text-sm"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate(
              { connection_type: selected, ...(externalId !== null && { external_id: externalId }) },
              {
                onSuccess: (link) => {
                  setResult({ link, type: selected });
                  refreshClients();
                },
              },
            );
          }}
        >
          <p>
            An auth link for <strong className="break-all">{who}</strong>: whoever opens it signs in with the platform,
            and the connection joins this client.
          </p>
          <label className="block">
            <span className="mb-1 block font-medium">Platform</span>
            <select
              className="input"
              value={selected}
              onChange={(e) => setChosen(e.target.value)}
              data-autofocus
              data-testid="connect-platform-type"
            >
              {lacking.length > 0 && (
                <optgroup label="Not connected yet">
                  {lacking.map((t) => (
                    <option key={t.type} value={t.type}>
                      {t.name}
                    </option>
                  ))}
                </optgroup>
              )}
              {has.length > 0 && (
                <optgroup label="Already connected">
                  {has.map((t) => (
                    <option key={t.type} value={t.type}>
                      {t.name}
                    </option>
                  ))}
                </optgroup>
              )}
            </select>
          </label>
          {create.isError && <ErrorNote error={create.error} title="No link was created." />}
          <div className="flex justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={close}>
              Cancel
            </button>
            <button type="submit" className="btn-primary" disabled={create.isPending || !selected}>
              {create.isPending ? "Creating…" : "Create auth link"}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
