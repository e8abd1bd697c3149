// bench:webhooks' writer: the connection changes whose webhooks are measured, made through the
// product's own lib functions in a process of its own (as the CLI or another instance would
// make them): `node --conditions=react-server --import tsx e2e/bench/webhook-writer.ts
// <command> '<json>' <result file>`. The result is written to the file as JSON (the logger owns
// stdout).
import { writeFileSync } from "node:fs";
import { createTeam } from "@/lib/teams/create-team";
import { createUser } from "@/lib/users/create-user";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { createWebhookEndpoint } from "@/lib/webhooks/endpoints";
import { saveConnection } from "@/lib/connection-changes/save-connection";
import { db } from "@/lib/db/client";

export type Seeded = { teamId: string; key: string; endpoints: { id: string; secret: string }[] };
/** Each change's connection id and the moment its transaction returned here (Date.now()); this process's CPU seconds over the changes. */
export type Changes = {
  commits: [connection: string, committedAt: number][];
  startedAt: number;
  endedAt: number;
  cpuSeconds: number;
};

type Args = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test data and CLI output of many shapes, read untyped

const commands: Record<string, (a: Args) => Promise<unknown>> = {
  /** A team with an owner and an API key, and one endpoint per receiver URL, each subscribed to every event. */
  async seed(a): Promise<Seeded> {
    const team = await createTeam({ name: "Webhooks bench", plan: "team" });
    const user = await createUser({
      teamId: team.id,
      email: `bench-${team.id.slice(5).toLowerCase()}@patchbay.dev`,
      role: "owner",
    });
    const { key } = await createApiKey({ teamId: team.id, userId: user.id, requireTeamPlan: false });
    const endpoints = [];
    for (const url of a.urls as string[]) {
      const { endpoint, secret } = await createWebhookEndpoint(team.id, { url });
      endpoints.push({ id: endpoint.id, secret });
    }
    return { teamId: team.id, key, endpoints };
  },
  /**
   * `count` new sandbox_key connections through saveConnection (the function every create and
   * auth link goes through, which writes the event and its deliveries in its transaction), by
   * `concurrency` writers, each waiting `spacingMs` after each of its changes.
   */
  async changes(a): Promise<Changes> {
    const commits: Changes["commits"] = [];
    let next = 0;
    const startedAt = Date.now();
    const cpu = process.cpuUsage();
    const writer = async () => {
      for (let i = next++; i < a.count; i = next++) {
        const { row } = await saveConnection({
          teamId: a.team,
          type: "sandbox_key",
          typeName: "Sandbox (API key)",
          displayName: `${a.label} ${i}`,
          ownerUserId: undefined,
          actingUserId: null,
          credentials: { api_key: `bench-${a.label}-${i}` },
          rotationKey: null,
          via: { kind: "credentials" },
        });
        commits.push([row.id, Date.now()]);
        if (a.spacingMs) await new Promise((r) => setTimeout(r, a.spacingMs));
      }
    };
    await Promise.all(Array.from({ length: a.concurrency ?? 1 }, writer));
    const used = process.cpuUsage(cpu);
    return { commits, startedAt, endedAt: Date.now(), cpuSeconds: (used.user + used.system) / 1e6 };
  },
};

async function main() {
  const [command, json, out] = process.argv.slice(2);
  const fn = commands[command];
  if (!fn || !out)
    throw new Error(`usage: webhook-writer.ts <${Object.keys(commands).join("|")}> '<json>' <result file>`);
  writeFileSync(out, JSON.stringify(await fn(JSON.parse(json ?? "{}"))));
  await db.$disconnect();
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
