"use client";

import { useMemo, useState } from "react";
import { useSearchParams } from "next/navigation";
import { useConnectionTypes } from "@/lib/queries/connections";
import {
  useCreateAuthLink,
  useRecentAuthLinks,
  type CreateAuthLinkInput,
  type CreatedAuthLink,
  type RecentAuthLink,
} from "@/lib/queries/auth-links";
import { resultRedirectUrl } from "@/lib/auth-links/result-redirect-url";
import { ErrorNote } from "@/components/ui/error-note";
import { TypeLogo } from "@/components/connections/type-logo";
import { AuthLinkResult } from "@/components/auth-links/auth-link-result";
import { StatusBadge } from "@/components/auth-links/status-badge";
import { LastAttempt } from "@/components/auth-links/last-attempt";
import { CopyField } from "@/components/ui/copy-field";
import { LocalTime } from "@/components/time/local-time";

// Stands in for the id the connection will get, in the redirect preview.
const PLACEHOLDER_CONNECTION_ID = "conn_XXXXXXXXXXXXXXXXXXXX";

function httpsProblem(value: string): string | null {
  if (!value) return null;
  try {
    return new URL(value).protocol === "https:" ? null : "The redirect URL must start with https://.";
  } catch {
    return "Enter an absolute URL such as https://example.com/connected.";
  }
}

export function AuthLinksView({ teamId }: { teamId: string }) {
  const searchParams = useSearchParams();
  const types = useConnectionTypes(teamId);
  const oauthTypes = useMemo(() => (types.data ?? []).filter((t) => t.auth_methods.includes("oauth")), [types.data]);
  const [type, setType] = useState(searchParams.get("type") ?? "");
  const [externalId, setExternalId] = useState(searchParams.get("external_id") ?? "");
  const [redirectUrl, setRedirectUrl] = useState("");
  const [isPrivate, setIsPrivate] = useState(false);
  const [result, setResult] = useState<{ link: CreatedAuthLink; type: string } | null>(null);
  const create = useCreateAuthLink(teamId);

  const selectedType = type && oauthTypes.some((t) => t.type === type) ? type : (oauthTypes[0]?.type ?? "");
  const nameOf = (t: string) => types.data?.find((x) => x.type === t)?.name ?? t;
  const redirectError = httpsProblem(redirectUrl.trim());
  const preview =
    redirectUrl.trim() && !redirectError
      ? resultRedirectUrl(redirectUrl.trim(), {
          status: "success",
          connection_type: selectedType,
          connection_id: PLACEHOLDER_CONNECTION_ID,
          external_id: externalId.trim() || null,
        })
      : null;

  const generate = (body: CreateAuthLinkInput) =>
    create.mutate(body, {
      onSuccess: (link) => {
        setResult({ link, type: body.connection_type });
        window.scrollTo({ top: 0, behavior: "smooth" });
      },
    });

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Auth links</h1>
        <p className="text-sm text-zinc-500 dark:text-zinc-400">
          Send a link to whoever owns an account; they sign in with the provider and the connection appears in this
          team. Links work once and for 24 hours.
        </p>
      </div>

      {result && (
        <AuthLinkResult key={result.link.id} teamId={teamId} link={result.link} typeName={nameOf(result.type)} />
      )}

      <section aria-labelledby="generate-title" className="card p-4">
        <h2 id="generate-title" className="mb-3 text-lg font-semibold">
          Generate a link
        </h2>
        {types.isError ? (
          <ErrorNote error={types.error} title="The connection types could not be loaded." />
        ) : types.isPending ? (
          <div className="h-40 animate-pulse rounded-lg bg-zinc-100 dark:bg-zinc-800" />
        ) : oauthTypes.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            No type can connect through OAuth on this server: configure a provider&apos;s OAuth app
            (OAUTH_&lt;PROVIDER&gt;_CLIENT_ID and _SECRET) first.
          </p>
        ) : (
          <form
            className="grid gap-4 md:grid-cols-2"
            onSubmit={(e) => {
              e.preventDefault();
              if (redirectError) return;
              generate({
                connection_type: selectedType,
                ...(externalId.trim() ? { external_id: externalId.trim() } : {}),
                ...(redirectUrl.trim() ? { redirect_url: redirectUrl.trim() } : {}),
                is_private: isPrivate,
              });
            }}
          >
            <label className="block text-sm">
              <span className="mb-1 block font-medium">Connection type</span>
              <select className="input" value={selectedType} onChange={(e) => setType(e.target.value)}>
                {oauthTypes.map((t) => (
                  <option key={t.type} value={t.type}>
                    {t.name}
                  </option>
                ))}
              </select>
            </label>
            <div className="text-sm">
              <label htmlFor="auth-link-external-id" className="mb-1 block font-medium">
                External ID (optional)
              </label>
              <input
                id="auth-link-external-id"
                className="input"
                maxLength={255}
                value={externalId}
                onChange={(e) => setExternalId(e.target.value)}
                placeholder="client-42"
                aria-describedby="external-id-help"
              />
              <p id="external-id-help" className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
                Your own opaque id for this client; it appears in the redirect, so no personal data.
              </p>
            </div>
            <div className="text-sm md:col-span-2">
              <label htmlFor="auth-link-redirect-url" className="mb-1 block font-medium">
                Redirect URL (optional)
              </label>
              <input
                id="auth-link-redirect-url"
                className="input"
                type="url"
                inputMode="url"
                value={redirectUrl}
                onChange={(e) => setRedirectUrl(e.target.value)}
                placeholder="https://your-app.example/connected"
                aria-invalid={redirectError ? true : undefined}
                aria-describedby="redirect-help"
              />
              <p
                id="redirect-help"
                className={`mt-1 text-xs ${redirectError ? "text-rose-700 dark:text-rose-300" : "text-zinc-500 dark:text-zinc-400"}`}
              >
                {redirectError ??
                  "Where the browser goes after connecting. Without one, the account owner sees Patchbay's own success page."}
              </p>
            </div>
            {preview && (
              <div className="rounded-lg bg-zinc-50 p-3 text-sm md:col-span-2 dark:bg-zinc-950">
                <p className="font-medium">After connecting, the browser goes to:</p>
                <p className="mt-1 break-all font-mono text-xs" data-testid="redirect-preview">
                  {preview}
                </p>
                <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
                  {PLACEHOLDER_CONNECTION_ID} stands for the new connection&apos;s id. A name your URL already uses gets
                  the <code>service_</code> prefix (read <code>service_status</code> when present).
                </p>
              </div>
            )}
            <label className="flex items-center gap-2 text-sm md:col-span-2">
              <input
                type="checkbox"
                checked={isPrivate}
                onChange={(e) => setIsPrivate(e.target.checked)}
                className="h-4 w-4 rounded border-zinc-300"
              />
              Private: the connection will be usable only by me
            </label>
            {create.isError && (
              <div className="md:col-span-2">
                <ErrorNote error={create.error} title="No link was created." />
              </div>
            )}
            <div className="md:col-span-2">
              <button type="submit" className="btn-primary" disabled={create.isPending || Boolean(redirectError)}>
                {create.isPending ? "Generating…" : "Generate link"}
              </button>
            </div>
          </form>
        )}
      </section>

      <RecentLinks
        teamId={teamId}
        nameOf={nameOf}
        logoOf={(t) => types.data?.find((x) => x.type === t)?.logo ?? null}
        onRegenerate={generate}
        regenerating={create.isPending}
      />
    </div>
  );
}

function RecentLinks({
  teamId,
  nameOf,
  logoOf,
  onRegenerate,
  regenerating,
}: {
  teamId: string;
  nameOf: (type: string) => string;
  logoOf: (type: string) => string | null;
  onRegenerate: (body: CreateAuthLinkInput) => void;
  regenerating: boolean;
}) {
  const recent = useRecentAuthLinks(teamId);
  const [sharing, setSharing] = useState<string | null>(null);
  const regenerate = (l: RecentAuthLink) =>
    onRegenerate({
      connection_type: l.connection_type,
      ...(l.external_id ? { external_id: l.external_id } : {}),
      ...(l.redirect_url ? { redirect_url: l.redirect_url } : {}),
      is_private: l.is_private,
    });
  return (
    <section aria-labelledby="recent-title" className="card">
      <h2 id="recent-title" className="border-b border-zinc-200 px-4 py-3 text-lg font-semibold dark:border-zinc-800">
        Recent links
      </h2>
      {recent.isError ? (
        <div className="p-4">
          <ErrorNote error={recent.error} title="The recent links could not be loaded." />
        </div>
      ) : recent.isPending ? (
        <div className="space-y-2 p-4">
          {Array.from({ length: 3 }, (_, i) => (
            <div key={i} className="h-8 animate-pulse rounded bg-zinc-100 dark:bg-zinc-800" />
          ))}
        </div>
      ) : recent.data.length === 0 ? (
        <p className="px-4 py-8 text-center text-sm text-zinc-600 dark:text-zinc-400">
          No links yet. Generate one above and send it to the account owner.
        </p>
      ) : (
        <ul className="divide-y divide-zinc-100 dark:divide-zinc-800" aria-label="Recent auth links">
          {recent.data.map((l) => (
            <li key={l.id} className="px-4 py-3" data-testid="recent-auth-link" data-status={l.status}>
              <div className="flex flex-wrap items-center gap-3">
                <TypeLogo logo={logoOf(l.connection_type)} />
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="text-sm font-medium">{nameOf(l.connection_type)}</span>
                    <StatusBadge status={l.status} />
                    {l.is_private && (
                      <span className="text-xs text-zinc-500 dark:text-zinc-400">private · only you see this link</span>
                    )}
                  </div>
                  <div className="text-xs text-zinc-500 dark:text-zinc-400">
                    <LocalTime seconds={l.created_at / 1000} />
                    {l.external_id && (
                      <>
                        {" · external_id "}
                        <span className="font-mono">{l.external_id}</span>
                      </>
                    )}
                    {l.connection_id && (
                      <>
                        {" · "}
                        <span className="font-mono">{l.connection_id}</span>
                      </>
                    )}
                  </div>
                  <LastAttempt attempt={l.last_attempt} status={l.status} expiresAt={l.expires_at} />
                </div>
                {l.status === "expired" && (
                  <button
                    type="button"
                    className="btn-secondary px-3 py-1.5"
                    onClick={() => regenerate(l)}
                    disabled={regenerating}
                  >
                    Regenerate
                  </button>
                )}
                {l.status === "pending" && l.url && (
                  <button
                    type="button"
                    className="btn-secondary px-3 py-1.5"
                    aria-expanded={sharing === l.id}
                    onClick={() => setSharing(sharing === l.id ? null : l.id)}
                  >
                    {sharing === l.id ? "Hide link" : "Show link"}
                  </button>
                )}
              </div>
              {sharing === l.id && l.url && (
                <div className="mt-3">
                  <CopyField value={l.url} label="Link to send" />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
