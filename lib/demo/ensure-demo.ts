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

export const DEMO_EMAIL = "demo@patchbay.dev";
export const DEMO_TEAMMATE = "teammate@patchbay.dev";
const DEMO_TEAM = "Demo Workspace";
const demoFile = () => join(dataDir, "demo.json");

type DemoCredentials = { teamId: string; password: string; api_key: string };

/**
 * Creates the demo workspace when it is absent: a Team-plan team, an owner who can sign in, a
 * teammate and an API key (its history is made by lib/demo/build-demo.ts, which `npm start` runs
 * on an empty database). The demo's password and key are kept in ./data/demo.json (demo only) so
 * every start can print them; if that file is gone they are issued anew.
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
    const team = await createTeam({ name: DEMO_TEAM, plan: "team" });
    teamId = team.id;
    created = true;
  }
  const valid = saved.teamId === teamId && saved.password && saved.api_key && (await keyIsLive(saved.api_key));
  let credentials = saved as DemoCredentials;
  if (!valid) {
    const password = randomToken(16);
    const owner = await createUser({ teamId, email: DEMO_EMAIL, role: "owner", password, name: "Demo Owner" });
    const { key } = await createApiKey({ teamId, userId: owner.id, name: "Demo key", requireTeamPlan: false });
    if (created) await createUser({ teamId, email: DEMO_TEAMMATE, role: "member", name: "Teammate" });
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
