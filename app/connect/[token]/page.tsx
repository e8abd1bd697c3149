import type { Metadata } from "next";
import { findConnectLink } from "@/lib/auth-links/find-connect-link";
import { oauthClientFor } from "@/lib/platforms/registry";
import { ConnectMessage, ConnectShell, ProviderLogo } from "@/components/connect/connect-shell";
import { ExpiryCountdown } from "@/components/connect/expiry-countdown";
import { Alert } from "@/components/ui/alert";
import { ConsentList } from "@/components/connect/consent-list";
import { consentTextFor } from "@/lib/operations/consent-text";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Connect your account · Patchbay", robots: { index: false } };

type Props = {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The hosted connect page at an auth link's `url`: public, no sign-in. */
export default async function ConnectPage({ params, searchParams }: Props) {
  const { token } = await params;
  const query = await searchParams;
  const found = await findConnectLink(token);
  if (!found) {
    return (
      <ConnectMessage tone="error" title="This link isn't valid">
        <p>
          Check that you opened the whole link you were sent. If it still doesn&apos;t work, ask the person who sent it
          for a new one.
        </p>
      </ConnectMessage>
    );
  }
  const { link, status, def } = found;
  const team = link.team.name;
  const typeName = def?.name ?? link.connectionType;

  if (status === "connected") {
    // Back → Approve after it connected: the second answer changed nothing, and the first stands.
    if (one(query.status) === "already_connected")
      return (
        <ConnectMessage tone="success" title={`${typeName} already connected`}>
          <p>
            {link.connection?.displayName ? <strong>{link.connection.displayName}</strong> : "An account"} is connected
            to {team} through this link. Answering the sign-in again changed nothing: a link connects one account. You
            can close this window.
          </p>
        </ConnectMessage>
      );
    return one(query.status) === "success" ? (
      <ConnectMessage tone="success" title={`${typeName} connected`}>
        <p>
          {link.connection?.displayName ? <strong>{link.connection.displayName}</strong> : "Your account"} is now
          connected to {team}. You can close this window.
        </p>
      </ConnectMessage>
    ) : (
      <ConnectMessage tone="warning" title="This link was already used">
        <p>
          It connected a {typeName} account to {team}. A link connects one account; to connect another, ask {team} for a
          new link.
        </p>
      </ConnectMessage>
    );
  }
  if (status === "expired") {
    return (
      <ConnectMessage tone="warning" title="This link has expired">
        <p>Links work for 24 hours. Ask {team} to send you a new one.</p>
      </ConnectMessage>
    );
  }
  const oauth = def?.oauth;
  if (!def || !oauth || !("client" in oauthClientFor(def))) {
    return (
      <ConnectMessage tone="error" title={`${typeName} can't be connected right now`}>
        <p>
          Sign-in with {typeName} is not set up on this server. Let {team} know; they can send a new link once it is.
        </p>
      </ConnectMessage>
    );
  }

  const error = one(query.error);
  const errorDescription = one(query.error_description);
  return (
    <ConnectShell>
      <div className="flex items-center gap-3">
        <ProviderLogo src={def.logo} name={def.name} />
        <div className="min-w-0">
          <p className="text-sm text-zinc-500 dark:text-zinc-400">{team}</p>
          <h1 className="text-xl font-semibold tracking-tight">Connect your {def.name} account</h1>
        </div>
      </div>

      {error && (
        <Alert className="mt-5">
          <p className="font-medium">
            {error === "access_denied" ? "Access wasn't granted." : "The connection didn't complete."}
          </p>
          {errorDescription && <p className="mt-1 wrap-anywhere">{errorDescription}</p>}
          <p className="mt-1">You can try again below.</p>
        </Alert>
      )}

      <p className="mt-5 text-sm leading-6 text-zinc-600 dark:text-zinc-300">
        <strong className="text-zinc-900 dark:text-zinc-100">{team}</strong> is asking for access to your {def.name}{" "}
        account. It will be able to:
      </p>
      <ConsentList text={consentTextFor(def)} providerName={oauth.providerName} />

      <form method="post" action={`/connect/${token}/start`} className="mt-6 space-y-3">
        {oauth.needsShop && (
          <label className="block text-sm">
            <span className="font-medium">Your store&apos;s domain</span>
            <input
              name="shop"
              required
              placeholder="acme.myshopify.com"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              className="mt-1 block w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 font-mono text-sm outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 dark:border-zinc-700 dark:bg-zinc-950"
            />
          </label>
        )}
        <button
          type="submit"
          className="w-full rounded-lg bg-indigo-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-indigo-700 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          Continue to {oauth.providerName}
        </button>
      </form>

      <p className="mt-4 text-xs leading-5 text-zinc-500 dark:text-zinc-400">
        You&apos;ll sign in at {oauth.providerName}; your password is never shared with {team} or Patchbay. This link{" "}
        <ExpiryCountdown expiresAt={link.expiresAt.getTime()} now={Date.now()} />. You can remove the access at any time
        in your {oauth.providerName} account settings.
      </p>
    </ConnectShell>
  );
}
