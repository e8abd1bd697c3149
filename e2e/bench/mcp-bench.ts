import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { db as Db } from "@/lib/db/client";
import { ensureBuild, freePort, freshPostgresDatabase, migrateWith, root, startServer } from "../support/server";
import { benchWorkspace } from "./workspace";

// What the /mcp benchmarks (bench:mcp, bench:mcp-oauth) share besides the JSON-RPC call: the run
// (embedded SQLite, or with DATABASE_URL=postgresql://… a fresh PostgreSQL database dropped
// afterwards; a team on the Team plan with its owner; the production server), samples
// alternated so every side sees the same machine, and the report.

type Bar = { bar: string; value: number; ok: boolean };
type Stats = { p50: number; p99: number; n: number };

type McpBench = {
  engine: "SQLite" | "PostgreSQL";
  port: number;
  baseUrl: string;
  /** The MCP endpoint. */
  url: string;
  team: { id: string };
  user: { id: string };
  db: typeof Db;
  /** A new MCP server of the owner's, bound to `connectionIds`, and a pbm_ MCP token of it. */
  mcpServer: (connectionIds?: string[]) => Promise<{ id: string; token: string }>;
};
type Measure = (bench: McpBench) => Promise<{ lines: string[]; bars: Bar[] }>;

/**
 * Runs bench `name` (its workspace folder and its report, e2e/.artifacts/<name>-<engine>.md):
 * `measure` returns the report's lines, to which its bars are added as PASS or FAIL; the exit
 * code is 0 only when every bar passes.
 */
export function runMcpBench(name: string, measure: Measure, serverEnv: Record<string, string> = {}) {
  run(name, measure, serverEnv).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

async function run(name: string, measure: Measure, serverEnv: Record<string, string>) {
  await ensureBuild();
  const postgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "");
  const pg = postgres ? await freshPostgresDatabase(process.env.DATABASE_URL!, "patchbay_bench") : undefined;
  const { env } = benchWorkspace(name, pg?.url);
  migrateWith(env);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // This process calls what the server calls (the sandbox provider, the consent) as the server does.
  process.env.APP_URL = baseUrl;
  const { createTeam } = await import("@/lib/teams/create-team");
  const { createUser } = await import("@/lib/users/create-user");
  const { createMcpServer, createMcpToken } = await import("@/lib/mcp-servers/mcp-servers");
  const { db } = await import("@/lib/db/client");
  const team = await createTeam({ name: "Bench", plan: "team", creditsLimit: 1_000_000_000 });
  const user = await createUser({ teamId: team.id, email: "bench@patchbay.dev", role: "owner" });
  const mcpServer = async (connectionIds?: string[]) => {
    const { id } = await createMcpServer({ teamId: team.id, ownerUserId: user.id, name: "Bench MCP", connectionIds });
    const { token } = await createMcpToken({ teamId: team.id, userId: user.id, role: "owner" }, id);
    return { id, token };
  };

  const server = await startServer(port, { ...env, ...serverEnv, PORT: String(port), APP_URL: baseUrl });
  try {
    const engine = postgres ? "PostgreSQL" : "SQLite";
    const url = `${baseUrl}/mcp`;
    const { lines, bars } = await measure({ engine, port, baseUrl, url, team, user, db, mcpServer });
    const text = [...lines, ...bars.map((b) => `- ${b.ok ? "PASS" : "FAIL"} ${b.bar}: ${b.value.toFixed(3)}`)].join(
      "\n",
    );
    console.log(`\n${text}\n`);
    writeFileSync(join(root, "e2e", ".artifacts", `${name}-${postgres ? "postgresql" : "sqlite"}.md`), text);
    process.exitCode = bars.every((b) => b.ok) ? 0 : 1;
  } finally {
    await server.stop();
    await db.$disconnect();
    await pg?.drop();
  }
}

const p = (times: number[], q: number) => {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

/** The p50, the p99 and the number of `times`. */
export const stats = (times: number[]): Stats => ({ p50: p(times, 0.5), p99: p(times, 0.99), n: times.length });

/**
 * Calls every side 100 times to warm up, then all in turn for `ms`, each round starting one side
 * later than the last, so no side always runs after the same one; the stats of each side.
 */
export async function sampleAlternated(sides: Record<string, () => Promise<unknown>>, ms: number) {
  for (let i = 0; i < 100; i++) for (const side of Object.values(sides)) await side();
  const order = Object.keys(sides);
  const times: Record<string, number[]> = Object.fromEntries(order.map((k) => [k, []]));
  const until = performance.now() + ms;
  for (let round = 0; performance.now() < until; round++) {
    for (let i = 0; i < order.length; i++) {
      const side = order[(round + i) % order.length];
      const t = performance.now();
      await sides[side]();
      times[side].push(performance.now() - t);
    }
  }
  return Object.fromEntries(order.map((k) => [k, stats(times[k])]));
}

/** Milliseconds as the reports print them. */
export const ms = (v: number) => v.toFixed(3);

/** A report's table of timings: one row a side, its label → its stats. */
export const timingTable = (rows: Record<string, Stats>) => [
  "| side | p50 ms | p99 ms | samples |",
  "|---|---|---|---|",
  ...Object.entries(rows).map(([label, s]) => `| ${label} | ${ms(s.p50)} | ${ms(s.p99)} | ${s.n} |`),
];
