import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/auth/current-user";
import { clientIp } from "@/lib/observability/request-context";
import { authorizeQuery, checkAuthorizeRequest } from "@/lib/mcp-oauth/authorize-request";
import { readConsentError } from "@/lib/mcp-oauth/consent-error";
import { consentChoices } from "@/lib/mcp-servers/oauth-consent";
import { ConnectMessage, ConnectShell, ProviderLogo } from "@/components/connect/connect-shell";
import { ConsentForm } from "@/components/oauth/consent-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Allow an app · Patchbay", robots: { index: false } };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * The authorization endpoint (CONTRACT §10): checks the request, signs the person in (and back
 * here), then asks at every request which team and MCP server the app may act on. Errors before
 * the client and its return address are known good, and every error while nobody is signed in,
 * stay on this page.
 */
export default async function AuthorizePage({ searchParams }: Props) {
  const raw = await searchParams;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(raw)) for (const one of [v ?? []].flat()) q.append(k, one);
  const user = await currentUser();
  const checked = await checkAuthorizeRequest(q, { signedIn: !!user, ip: clientIp(await headers()) });
  if (checked.kind === "page")
    return (
      <ConnectMessage tone="error" title={checked.title}>
        <p>{checked.message}</p>
        <p>Go back to the app and try adding Patchbay again; if it keeps happening, tell the app&apos;s makers.</p>
      </ConnectMessage>
    );
  if (checked.kind === "redirect") redirect(checked.location);
  const { request } = checked;
  if (!user) redirect(`/sign-in?callbackUrl=${encodeURIComponent(`/oauth/authorize?${q}`)}`);
  if (user.teams.length === 0)
    return (
      <ConnectMessage tone="warning" title="You are not in a team yet">
        <p>Ask a team owner for an invitation, then add Patchbay to {request.client.name} again.</p>
      </ConnectMessage>
    );
  const choices = await consentChoices(user, q.get("team"), request.client.id);
  const redirectHost = new URL(request.redirectUri).host || new URL(request.redirectUri).protocol;
  // Only a refusal the consent form's POST signed for this request and person (never the URL's own words).
  const error = readConsentError(request, user.id, q);
  return (
    <ConnectShell>
      <div className="flex items-center gap-3">
        <ProviderLogo name={request.client.name} />
        <div className="min-w-0">
          <h1 className="text-xl font-semibold tracking-tight [overflow-wrap:anywhere]">
            Allow {request.client.name} to use Patchbay?
          </h1>
          <p className="text-sm text-zinc-600 [overflow-wrap:anywhere] dark:text-zinc-400">Signed in as {user.email}</p>
        </div>
      </div>
      <dl className="mt-4 space-y-1 text-sm">
        <div className="flex gap-2">
          <dt className="text-zinc-500 dark:text-zinc-400">Returns you to</dt>
          <dd className="break-all font-medium">{redirectHost}</dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-zinc-500 dark:text-zinc-400">Identity</dt>
          <dd>
            {request.client.kind === "cimd" ? (
              <>
                Verified: its metadata document at{" "}
                <span className="font-medium">{new URL(request.client.id).host}</span> names it
              </>
            ) : (
              "Registered itself here; Patchbay has not verified who runs it"
            )}
          </dd>
        </div>
      </dl>
      {error && (
        <p
          role="alert"
          className="mt-4 rounded-lg bg-rose-50 p-3 text-sm text-rose-800 dark:bg-rose-950 dark:text-rose-200"
        >
          {error}
        </p>
      )}
      <ConsentForm
        // A team switch starts the choice afresh (its servers, and the one already granted there).
        key={choices.team!.id}
        request={Object.fromEntries(authorizeQuery(request))}
        clientName={request.client.name}
        teams={choices.teams}
        team={choices.team!}
        servers={choices.servers}
        platforms={choices.platforms}
        granted={
          choices.granted ? { serverId: choices.granted.mcpServerId, serverName: choices.granted.mcpServer.name } : null
        }
      />
      <p className="mt-4 text-xs text-zinc-500 dark:text-zinc-400">
        It acts as you: what you can see, nothing more. Revoke it any time in Settings → MCP servers.
      </p>
    </ConnectShell>
  );
}
