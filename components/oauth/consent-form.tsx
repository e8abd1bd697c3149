"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { WRITE_POLICIES, WRITE_POLICY_DESCRIPTIONS, type WritePolicy } from "@/lib/schemas/write-policy";

type Platform = {
  type: string;
  name: string;
  connections: { id: string; name: string; isPrivate: boolean }[];
};

export type ConsentFormProps = {
  /** The authorization request's parameters, posted back unchanged. */
  request: Record<string, string>;
  clientName: string;
  teams: { id: string; name: string; role: "owner" | "member" }[];
  team: { id: string; name: string; role: "owner" | "member" };
  servers: { id: string; name: string; isPrivate: boolean; writePolicy: string; connections: number }[];
  platforms: Platform[];
  /** The server she already allowed this app on in this team: offered first, and kept by a repeated Allow. */
  granted?: { serverId: string; serverName: string } | null;
};

const field =
  "mt-1 block w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-950";
const legend = "text-sm font-semibold text-zinc-900 dark:text-zinc-100";

/**
 * What the person grants: the team, and an MCP server (a new one by default: private to her,
 * every connection she can see, writes off) whose rules the app will act under. A plain form
 * POST to /oauth/consent, so it works the same with or without scripts; the team picker reloads
 * the page for that team's servers and connections.
 */
export function ConsentForm({ request, clientName, teams, team, servers, platforms, granted }: ConsentFormProps) {
  const router = useRouter();
  const [server, setServer] = useState<string>(granted?.serverId ?? "new");
  const [policy, setPolicy] = useState<WritePolicy>("off");
  const policies = WRITE_POLICIES.filter((p) => p !== "allowed" || team.role === "owner");
  const switchTeam = (id: string) => {
    const q = new URLSearchParams(request);
    q.set("team", id);
    router.replace(`/oauth/authorize?${q}`);
  };
  return (
    <form method="post" action="/oauth/consent" className="mt-6 space-y-5">
      {Object.entries(request).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div>
        <label htmlFor="consent-team" className={legend}>
          Team
        </label>
        <select
          id="consent-team"
          name="team_id"
          className={field}
          value={team.id}
          onChange={(e) => switchTeam(e.target.value)}
        >
          {teams.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
      <fieldset>
        <legend className={legend}>MCP server</legend>
        <p className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">
          {clientName} will act as you on this server: only its connections, under its write policy.
        </p>
        {granted && (
          <p className="mt-2 rounded-lg bg-indigo-50 p-2 text-xs text-indigo-900 dark:bg-indigo-950 dark:text-indigo-200">
            You already allowed {clientName} on {granted.serverName}: allowing it again keeps that server, and no second
            one is made. To use another, choose it below (or make one in Settings → MCP servers first).
          </p>
        )}
        <div className="mt-2 space-y-2">
          {!granted && (
            <label className="flex items-start gap-2 text-sm">
              <input
                type="radio"
                name="server"
                value="new"
                checked={server === "new"}
                onChange={() => setServer("new")}
                className="mt-1"
              />
              <span>A new MCP server, private to you</span>
            </label>
          )}
          {servers.map((s) => (
            <label key={s.id} className="flex items-start gap-2 text-sm">
              <input
                type="radio"
                name="server"
                value={s.id}
                checked={server === s.id}
                onChange={() => setServer(s.id)}
                className="mt-1"
              />
              <span>
                {s.name}
                <span className="text-zinc-500 dark:text-zinc-400">
                  {" "}
                  · {s.isPrivate ? "private" : "shared"} · {s.connections} connection{s.connections === 1 ? "" : "s"} ·
                  writes {WRITE_POLICY_DESCRIPTIONS[s.writePolicy as WritePolicy]?.label.toLowerCase() ?? s.writePolicy}
                </span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {server === "new" && (
        <div className="space-y-5 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800">
          <div>
            <label htmlFor="consent-name" className={legend}>
              Server name
            </label>
            <input
              id="consent-name"
              name="name"
              required
              maxLength={100}
              defaultValue={clientName.slice(0, 100)}
              className={field}
            />
          </div>
          <fieldset>
            <legend className={legend}>Connections</legend>
            {platforms.length === 0 ? (
              <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
                This team has no connections you can use yet; the app will see none until you add some to the server.
              </p>
            ) : (
              <div className="mt-2 space-y-3">
                {platforms.map((p) => (
                  <div key={p.type}>
                    <p className="text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">
                      {p.name}
                    </p>
                    {p.connections.map((c) => (
                      <label key={c.id} className="mt-1 flex items-center gap-2 text-sm">
                        <input type="checkbox" name="connection_ids" value={c.id} defaultChecked />
                        <span>
                          {c.name}
                          {c.isPrivate && <span className="text-zinc-500 dark:text-zinc-400"> · private to you</span>}
                        </span>
                      </label>
                    ))}
                  </div>
                ))}
              </div>
            )}
          </fieldset>
          <fieldset>
            <legend className={legend}>Writes</legend>
            <div className="mt-2 space-y-2">
              {policies.map((p) => (
                <label key={p} className="flex items-start gap-2 text-sm">
                  <input
                    type="radio"
                    name="write_policy"
                    value={p}
                    checked={policy === p}
                    onChange={() => setPolicy(p)}
                    className="mt-1"
                  />
                  <span>
                    <span className="font-medium">{WRITE_POLICY_DESCRIPTIONS[p].label}</span>
                    <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                      {WRITE_POLICY_DESCRIPTIONS[p].consequence}
                    </span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
        </div>
      )}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button type="submit" name="decision" value="deny" formNoValidate className="btn-secondary">
          Deny
        </button>
        <button type="submit" name="decision" value="allow" className="btn-primary">
          Allow
        </button>
      </div>
    </form>
  );
}
