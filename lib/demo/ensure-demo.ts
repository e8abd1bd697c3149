import "server-only";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { db } from "@/lib/db/client";
import { appUrl, dataDir, isProductionMode } from "@/lib/config/env";
import { randomToken } from "@/lib/security/ids";
import { sha256Hex } from "@/lib/security/hashing";
import { createTeam } from "@/lib/teams/create-team";
import { createUser } from "@/lib/users/create-user";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { simulateActivity } from "@/lib/activity/simulate-activity";

export const DEMO_EMAIL = "demo@patchbay.dev";
const DEMO_TEAM = "Demo Workspace";
const DEMO_PERIOD_DAYS_ELAPSED = 20;
const demoFile = () => join(dataDir, "demo.json");

type DemoCredentials = { teamId: string; password: string; api_key: string };

/**
 * Creates the demo workspace when it is absent: a Team-plan team, an owner who can sign in,
 * an API key and a month of simulated activity. The demo's password and key are kept in
 * ./data/demo.json (demo only) so every start can print them; if that file is gone they are
 * issued anew.
 */
export async function ensureDemo() {
  if (isProductionMode())
    throw new Error(
      "There is no demo workspace in production mode (APP_ENV=production): create a team and its owner with `team create` and `user create`.",
    );
  const user = await db.user.findUnique({
    where: { email: DEMO_EMAIL },
    select: { id: true, memberships: { select: { teamId: true, role: true } } },
  });
  const saved: Partial<DemoCredentials> = existsSync(demoFile())
    ? (JSON.parse(readFileSync(demoFile(), "utf8")) as Partial<DemoCredentials>)
    : {};
  let created = false;
  let teamId = user?.memberships.find((m) => m.role === "owner")?.teamId;
  if (!teamId) {
    // Twenty days into its billing period, so the simulated month of activity below has a
    // current period's worth of usage (chart, forecast) and older history in the ledger.
    const team = await createTeam({
      name: DEMO_TEAM,
      plan: "team",
      periodStartedAt: new Date(Date.now() - DEMO_PERIOD_DAYS_ELAPSED * 86_400_000),
    });
    teamId = team.id;
    created = true;
  }
  const valid = saved.teamId === teamId && saved.password && saved.api_key && (await keyIsLive(saved.api_key));
  let credentials = saved as DemoCredentials;
  if (!valid) {
    const password = randomToken(16);
    const owner = await createUser({ teamId, email: DEMO_EMAIL, role: "owner", password, name: "Demo Owner" });
    const { key } = await createApiKey({ teamId, userId: owner.id, name: "Demo key", requireTeamPlan: false });
    if (created) {
      await createUser({ teamId, email: "teammate@patchbay.dev", role: "member", name: "Teammate" });
      await simulateActivity(teamId, {
        workflowRuns: 400,
        mcpCalls: 600,
        // No agent or Copilot activity: the product has neither yet, so the demo shows neither.
        agentConversations: 0,
        copilotUses: 0,
        days: DEMO_PERIOD_DAYS_ELAPSED,
        seed: 42,
      });
    }
    credentials = { teamId, password, api_key: key };
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(demoFile(), JSON.stringify(credentials, null, 2), { mode: 0o600 });
  }
  return {
    created,
    teamId,
    url: appUrl(),
    email: DEMO_EMAIL,
    password: credentials.password,
    api_key: credentials.api_key,
  };
}

async function keyIsLive(key: string) {
  const row = await db.apiKey.findUnique({ where: { hash: sha256Hex(key) }, select: { revokedAt: true } });
  return !!row && !row.revokedAt;
}
