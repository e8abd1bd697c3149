"use client";

import { useEffect } from "react";
import {
  useAuthLinkStatus,
  useRecentAuthLinks,
  useRefreshAfterConnect,
  type CreatedAuthLink,
} from "@/lib/queries/auth-links";
import { LastAttempt } from "@/components/auth-links/last-attempt";
import { ErrorNote } from "@/components/ui/error-note";
import { CopyField } from "@/components/ui/copy-field";
import { QrCode } from "@/components/auth-links/qr-code";
import { LiveCountdown } from "@/components/auth-links/live-countdown";
import { StatusBadge } from "@/components/auth-links/status-badge";

/** A freshly generated link: share it (copy, QR), watch the clock and the status turn connected. */
export function AuthLinkResult({
  teamId,
  link,
  typeName,
}: {
  teamId: string;
  link: CreatedAuthLink;
  typeName: string;
}) {
  const status = useAuthLinkStatus(teamId, link.id);
  // The spec's status endpoint says pending and nothing more; the dashboard's list knows the last attempt.
  const attempt = useRecentAuthLinks(teamId).data?.find((l) => l.id === link.id)?.last_attempt ?? null;
  const refresh = useRefreshAfterConnect(teamId);
  const current = status.data?.status ?? "pending";
  useEffect(() => {
    if (current !== "pending") refresh();
    // Refreshes once when the status leaves pending; refresh's identity does not matter.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see the line above
  }, [current]);
  const connection = status.data?.connections[0];
  return (
    <section aria-labelledby="auth-link-result-title" className="card space-y-4 p-4" data-testid="auth-link-result">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="auth-link-result-title" className="text-lg font-semibold">
          {typeName} auth link
        </h2>
        <div className="flex items-center gap-3 text-sm">
          {current === "pending" && <LiveCountdown expiresAt={link.expires_at} />}
          <span
            role="status"
            aria-live="polite"
            data-testid="auth-link-status"
            className="inline-flex items-center gap-2"
          >
            {current === "pending" && (
              <span className="h-2 w-2 animate-pulse rounded-full bg-amber-500" aria-hidden="true" />
            )}
            <StatusBadge status={current} />
          </span>
        </div>
      </div>
      <div className="flex flex-col gap-4 sm:flex-row">
        <div className="min-w-0 flex-1 space-y-3">
          <CopyField value={link.url} label="Link to send" />
          {current === "pending" &&
            (attempt ? (
              <LastAttempt attempt={attempt} status={current} expiresAt={link.expires_at} />
            ) : (
              <p className="text-sm text-zinc-600 dark:text-zinc-400">
                Waiting for the account owner to open the link and sign in. This page updates by itself.
              </p>
            ))}
          {current === "expired" && (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              This link expired unused. Regenerate it from the list below.
            </p>
          )}
          {current === "connected" && (
            <div
              className="rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm dark:border-emerald-900 dark:bg-emerald-950/40"
              data-testid="auth-link-connection"
            >
              <p className="font-semibold text-emerald-900 dark:text-emerald-200">Connected</p>
              {connection ? (
                <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5">
                  <dt className="text-zinc-500 dark:text-zinc-400">Name</dt>
                  <dd>{connection.display_name ?? "—"}</dd>
                  <dt className="text-zinc-500 dark:text-zinc-400">Connection ID</dt>
                  <dd className="break-all font-mono text-xs">{connection.id}</dd>
                  {connection.external_id && (
                    <>
                      <dt className="text-zinc-500 dark:text-zinc-400">External ID</dt>
                      <dd className="break-all font-mono text-xs">{connection.external_id}</dd>
                    </>
                  )}
                </dl>
              ) : (
                <p className="mt-1">The connection is private to the person who created the link.</p>
              )}
            </div>
          )}
          {status.isError && <ErrorNote error={status.error} title="The status could not be checked; retrying." />}
        </div>
        {current === "pending" && <QrCode value={link.url} />}
      </div>
    </section>
  );
}
