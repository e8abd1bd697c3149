"use client";

import Link from "next/link";
import { useState } from "react";
import { useConnectionTypeDocs, useConnectionTypes, useCreateConnection } from "@/lib/queries/connections";
import type { DashboardConnectionType } from "@/lib/schemas/dashboard";
import { ApiRequestError } from "@/lib/queries/api-client";
import { Dialog } from "@/components/ui/dialog";
import { ErrorNote, errorDetail } from "@/components/ui/error-note";
import { Markdown } from "@/components/ui/markdown";
import { TypeLogo } from "@/components/connections/type-logo";
import { plural } from "@/lib/text/plural";

const SECRET_FIELD = /secret|token|key|password/i;

/**
 * Pick a type from /v1/connections/types; manual types get a credentials form beside their docs,
 * OAuth types an auth link.
 */
export function NewConnectionDialog({ teamId, open, onClose }: { teamId: string; open: boolean; onClose: () => void }) {
  const types = useConnectionTypes(teamId);
  const [chosen, setChosen] = useState<DashboardConnectionType | null>(null);
  const [query, setQuery] = useState("");
  const close = () => {
    setChosen(null);
    setQuery("");
    onClose();
  };
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = (types.data ?? []).filter((t) =>
    words.every((w) => t.name.toLowerCase().includes(w) || t.type.includes(w)),
  );
  const offered = shown.filter((t) => t.auth_methods.length > 0);
  return (
    <Dialog
      open={open}
      onClose={close}
      title={chosen ? `New ${chosen.name} connection` : "New connection"}
      className={chosen ? "max-w-5xl" : "max-w-2xl"}
    >
      {chosen ? (
        <TypeForm teamId={teamId} type={chosen} onBack={() => setChosen(null)} onDone={close} />
      ) : types.isPending ? (
        <div className="grid gap-2 sm:grid-cols-2" role="status" aria-label="Loading connection types">
          {Array.from({ length: 6 }, (_, i) => (
            <div key={i} className="h-14 animate-pulse rounded-lg bg-zinc-100 dark:bg-zinc-800" />
          ))}
        </div>
      ) : types.isError ? (
        <ErrorNote error={types.error} title="The connection types could not be loaded." />
      ) : (
        <>
          <fieldset>
            <legend className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">
              Choose the kind of account to connect.
            </legend>
            <label className="mb-3 block">
              <span className="sr-only">Search platforms</span>
              <input
                type="search"
                className="input"
                placeholder="Search platforms (Sheets, Pinterest, ads …)"
                value={query}
                onChange={(e) => setQuery(e.target.value)}
                aria-controls="connection-type-list"
              />
            </label>
            <p className="sr-only" role="status">
              {query ? plural(offered.length, "platform") : ""}
            </p>
            {offered.length === 0 && (
              <p className="text-sm text-zinc-500 dark:text-zinc-400">No platform matches “{query}”.</p>
            )}
            <ul id="connection-type-list" className="grid max-h-[50vh] gap-2 overflow-y-auto sm:grid-cols-2">
              {offered.map((t) => (
                <li key={t.type}>
                  <button
                    type="button"
                    onClick={() => setChosen(t)}
                    className="flex w-full items-center gap-3 rounded-lg border border-zinc-200 p-3 text-left hover:border-indigo-400 hover:bg-indigo-50/50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-indigo-600 dark:border-zinc-800 dark:hover:bg-indigo-950/30"
                  >
                    <TypeLogo logo={t.logo} size={32} />
                    <span className="min-w-0">
                      <span className="block text-sm font-medium">{t.name}</span>
                      <span className="block text-xs text-zinc-500 dark:text-zinc-400">
                        {t.auth_methods.map((m) => (m === "oauth" ? "auth link" : "credentials")).join(" or ")}
                      </span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </fieldset>
          <NotSetUp types={shown.filter((t) => t.auth_methods.length === 0)} />
        </>
      )}
    </Dialog>
  );
}

function TypeForm({
  teamId,
  type,
  onBack,
  onDone,
}: {
  teamId: string;
  type: DashboardConnectionType;
  onBack: () => void;
  onDone: () => void;
}) {
  const manual = type.auth_methods.includes("manual");
  const oauth = type.auth_methods.includes("oauth");
  const fields = type.credential_fields ?? [];
  const docs = useConnectionTypeDocs(type.docs_url);
  const create = useCreateConnection(teamId);
  const [name, setName] = useState("");
  const [values, setValues] = useState<Record<string, string>>({});
  const [isPrivate, setIsPrivate] = useState(false);

  const rejection = create.error instanceof ApiRequestError ? create.error : null;
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <div className="space-y-4">
        <button
          type="button"
          onClick={onBack}
          className="text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400"
        >
          ← Other types
        </button>
        {oauth && (
          <div className="rounded-lg border border-zinc-200 p-3 text-sm dark:border-zinc-800">
            <p className="font-medium">Connect through OAuth</p>
            <p className="mt-1 text-zinc-600 dark:text-zinc-400">
              Generate an auth link and send it to whoever owns the {type.name} account; they sign in there and the
              connection appears here.
            </p>
            <Link href={`/${teamId}/auth-links?type=${encodeURIComponent(type.type)}`} className="btn-primary mt-3">
              Generate an auth link
            </Link>
          </div>
        )}
        {manual && (
          <form
            className="space-y-3"
            onSubmit={(e) => {
              e.preventDefault();
              create.mutate(
                {
                  connection_type: type.type,
                  name: name.trim(),
                  credentials: Object.fromEntries(fields.map((f) => [f, values[f] ?? ""])),
                  is_private: isPrivate,
                },
                { onSuccess: onDone },
              );
            }}
          >
            {oauth && (
              <p className="text-sm font-medium">Or connect with your own app&apos;s credentials (white-label)</p>
            )}
            <label className="block text-sm">
              <span className="mb-1 block font-medium">Name</span>
              <input
                className="input"
                required
                maxLength={100}
                value={name}
                onChange={(e) => setName(e.target.value)}
                placeholder={`${type.name} — client account`}
              />
            </label>
            {fields.map((field) => (
              <label key={field} className="block text-sm">
                <span className="mb-1 block font-mono text-xs font-medium">{field}</span>
                <input
                  className="input font-mono"
                  required
                  type={SECRET_FIELD.test(field) ? "password" : "text"}
                  autoComplete="off"
                  spellCheck={false}
                  value={values[field] ?? ""}
                  onChange={(e) => setValues((v) => ({ ...v, [field]: e.target.value }))}
                  aria-invalid={rejection ? true : undefined}
                  aria-describedby={rejection ? "create-connection-error" : undefined}
                />
              </label>
            ))}
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={isPrivate}
                onChange={(e) => setIsPrivate(e.target.checked)}
                className="h-4 w-4 rounded border-zinc-300"
              />
              Private: only I can use it
            </label>
            {create.isError && (
              <div id="create-connection-error">
                <ErrorNote error={create.error} title={rejectionTitle(create.error, type.name)} />
                {rejection?.status === 400 && (
                  <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
                    Nothing was stored. Check the values against the guide, then try again.
                  </p>
                )}
              </div>
            )}
            <button type="submit" className="btn-primary" disabled={create.isPending}>
              {create.isPending ? `Checking with ${type.name}…` : "Create connection"}
            </button>
          </form>
        )}
        {manual && !oauth && type.missing_settings.length > 0 && (
          <p className="text-xs text-zinc-500 dark:text-zinc-400" data-testid="oauth-setup-hint">
            Auth links for {type.name} need its OAuth app on this server: <SettingNames names={type.missing_settings} />
            .
          </p>
        )}
      </div>
      <aside
        aria-label={`${type.name} guide`}
        className="max-h-[65vh] overflow-y-auto rounded-lg bg-zinc-50 p-4 dark:bg-zinc-950"
      >
        {!type.docs_url ? (
          <p className="text-sm text-zinc-500 dark:text-zinc-400">No guide exists for this type.</p>
        ) : docs.isPending ? (
          <div className="space-y-2" role="status" aria-label="Loading the guide">
            {Array.from({ length: 5 }, (_, i) => (
              <div key={i} className="h-4 animate-pulse rounded bg-zinc-200 dark:bg-zinc-800" />
            ))}
          </div>
        ) : docs.isError ? (
          <p className="text-sm text-rose-700 dark:text-rose-300">
            The guide could not be loaded: {errorDetail(docs.error)}
          </p>
        ) : (
          <Markdown source={docs.data} />
        )}
      </aside>
    </div>
  );
}

/**
 * Owners only (the API lists these to no one else): each type that needs a setting before it can be
 * connected, and which.
 */
function NotSetUp({ types }: { types: DashboardConnectionType[] }) {
  if (types.length === 0) return null;
  const callback = typeof window === "undefined" ? "/oauth/callback" : `${window.location.origin}/oauth/callback`;
  return (
    <section aria-labelledby="not-set-up" className="mt-5 border-t border-zinc-200 pt-4 dark:border-zinc-800">
      <h3 id="not-set-up" className="text-sm font-medium">
        Not set up on this server
      </h3>
      <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
        These connect only through their provider&apos;s OAuth app. Set its settings in the server&apos;s environment,
        register <code className="font-mono">{callback}</code> as the app&apos;s redirect URI, and restart. Until then
        they are not offered here or in <code className="font-mono">GET /v1/connections/types</code>.
      </p>
      <ul className="mt-3 grid gap-2 sm:grid-cols-2">
        {types.map((t) => (
          <li
            key={t.type}
            data-testid={`not-set-up-${t.type}`}
            className="flex items-start gap-3 rounded-lg border border-dashed border-zinc-300 p-3 text-sm dark:border-zinc-700"
          >
            <TypeLogo logo={t.logo} size={32} />
            <span className="min-w-0">
              <span className="block font-medium text-zinc-600 dark:text-zinc-300">{t.name}</span>
              <span className="block text-xs text-zinc-500 dark:text-zinc-400">Set</span>
              {t.missing_settings.map((name) => (
                <code key={name} className="block break-all font-mono text-xs text-zinc-600 dark:text-zinc-300">
                  {name}
                </code>
              ))}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function SettingNames({ names }: { names: string[] }) {
  return (
    <>
      {names.map((name, i) => (
        <span key={name}>
          {i > 0 && (i === names.length - 1 ? " and " : ", ")}
          <code className="break-all font-mono">{name}</code>
        </span>
      ))}
    </>
  );
}

function rejectionTitle(error: unknown, typeName: string): string {
  if (!(error instanceof ApiRequestError)) return "The request failed.";
  if (error.status === 400) return `${typeName} rejected these credentials:`;
  if (error.status === 403) return "Not allowed on this plan:";
  if (error.status === 502) return `${typeName} could not be reached:`;
  return "The connection was not created:";
}
