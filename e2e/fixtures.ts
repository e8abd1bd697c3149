import "./support/server-code";
import "./support/lean-stack-traces";
import { test as base, expect, type APIRequestContext, type APIResponse, type Browser } from "@playwright/test";
import { execFile, fork } from "node:child_process";
import { promisify } from "node:util";
import { resolve } from "node:path";
import { requestContext } from "./support/request-context";
import { childrenCpuMs, recordProbe } from "./support/timing-reporter";
import { seedCommands } from "./support/seed-commands";
import { serverLogOffset, stallReport } from "./support/stall-report";
import { STALL_REPORT } from "./support/summary-reporter";
import { waitForHydrationOnLoad } from "./support/hydration";
import { runCli } from "@/lib/cli/run-cli";
import type { HostAnswer, HostCommand } from "./support/host";

const run = promisify(execFile);
const root = resolve(__dirname, "..");
export const baseURL = () => process.env.BASE_URL!;

/** The admin CLI (lib/cli/main.ts) as a process with this environment: its stdout. */
async function cliMain(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const t0 = Date.now();
  const cpu0 = childrenCpuMs();
  try {
    const { stdout } = await run(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "lib/cli/main.ts", ...args],
      { cwd: root, env, maxBuffer: 64 * 1024 * 1024 },
    );
    return stdout;
  } finally {
    recordProbe({
      kind: "cli process",
      what: args.slice(0, 2).join(" "),
      ms: Date.now() - t0,
      cpuMs: childrenCpuMs() - cpu0,
    });
  }
}

/**
 * One in-process seed or CLI command at a time in this worker. As processes they ran side by
 * side on their own connections; in one process they share the database client, whose SQLite
 * guard (lib/db/one-statement-at-a-time.ts) refuses a statement that arrives, from another
 * command's async context, while a transaction is open on it.
 */
let queue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const next = queue.then(work, work);
  queue = next.catch(() => undefined);
  return next;
}

/**
 * Test data through the product's own lib functions (e2e/support/seed-commands.ts), called in
 * this worker's process on the run's database; the answer is what a process would print.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test data and CLI output of many shapes, read untyped
export async function seed<T = any>(command: string, args: object = {}): Promise<T> {
  const t0 = Date.now();
  try {
    const out = await oneAtATime(() => seedCommands[command](JSON.parse(JSON.stringify(args))));
    return JSON.parse(JSON.stringify(out)) as T;
  } finally {
    recordProbe({ kind: "seed in process", what: command, ms: Date.now() - t0 });
  }
}

/**
 * The admin CLI's command line (lib/cli/run-cli.ts, what `npm run cli` runs) in this worker's
 * process: the JSON it prints and its exit code. e2e/api/cli.spec.ts runs every command as a
 * process (`cliProcess`); the other suites use the CLI to act as an operator.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test data and CLI output of many shapes, read untyped
export async function cli(...args: string[]): Promise<{ code: number; json: any }> {
  const t0 = Date.now();
  try {
    const { code, stdout } = await oneAtATime(() => runCli(args));
    return { code, json: JSON.parse(stdout) };
  } finally {
    recordProbe({ kind: "cli in process", what: args.slice(0, 2).join(" "), ms: Date.now() - t0 });
  }
}

/** The admin CLI exactly as an operator runs it, as a process; returns its JSON and exit code. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test data and CLI output of many shapes, read untyped
export async function cliProcess(...args: string[]): Promise<{ code: number; json: any }> {
  return cliWith(process.env, ...args);
}

/** The CLI's raw stdout and exit code, for output that is not JSON (`--help`). */
export async function cliText(...args: string[]): Promise<{ code: number; stdout: string }> {
  try {
    return { code: 0, stdout: await cliMain(args) };
  } catch (e) {
    const err = e as { code: number; stdout: string };
    return { code: err.code, stdout: err.stdout };
  }
}

/** `cli` in a process with this environment (another database, another TZ). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test data and CLI output of many shapes, read untyped
export async function cliWith(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; json: any }> {
  try {
    return { code: 0, json: JSON.parse(await cliMain(args, env)) };
  } catch (e) {
    const err = e as { code: number; stdout: string };
    return { code: err.code, json: JSON.parse(err.stdout) };
  }
}

/** `cli` and `seed` for many commands in another environment: see `hostWith`. */
export type Host = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- CLI output of many shapes, read untyped
  cli: (...args: string[]) => Promise<{ code: number; json: any }>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test data of many shapes, read untyped
  seed: <T = any>(command: string, args?: object) => Promise<T>;
  close: () => Promise<void>;
};

/**
 * One process with this environment (another database, another TZ) that runs `cli` and `seed`
 * commands one after another (e2e/support/host.ts): what `cliWith` and `e2e/support/seed.ts` print,
 * for one Node start instead of one per command.
 */
export function hostWith(env: NodeJS.ProcessEnv): Host {
  const child = fork(resolve(root, "e2e/support/host.ts"), [], {
    cwd: root,
    env,
    execArgv: ["--conditions=react-server", "--import", "tsx"],
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-4000)));
  const waiting = new Map<number, (answer: HostAnswer) => void>();
  child.on("message", (answer: HostAnswer) => waiting.get(answer.id)?.(answer));
  const exited = new Promise<never>((_, reject) =>
    child.on("exit", (code) => reject(new Error(`the host process exited with ${code}: ${stderr}`))),
  );
  exited.catch(() => undefined);
  let last = 0;
  const send = async (request: HostCommand, what: string) => {
    const id = ++last;
    const t0 = Date.now();
    try {
      const answered = new Promise<HostAnswer>((done) => waiting.set(id, done));
      child.send({ id, ...request });
      return await Promise.race([answered, exited]);
    } finally {
      waiting.delete(id);
      recordProbe({ kind: `${request.kind} in host`, what, ms: Date.now() - t0 });
    }
  };
  return {
    async cli(...args) {
      const { code, stdout } = await send({ kind: "cli", args }, args.slice(0, 2).join(" "));
      return { code, json: JSON.parse(stdout) };
    },
    async seed(command, args = {}) {
      const { code, stdout } = await send({ kind: "seed", command, args }, command);
      if (code !== 0) throw new Error(`seed ${command} failed: ${stdout}`);
      return JSON.parse(stdout);
    },
    close: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once("exit", () => done());
        child.disconnect();
      }),
  };
}

export type SeededUser = { id: string; email: string; key: string; keyId: string };
export type SeededTeam = { id: string; users: SeededUser[] };

export async function seedTeam(
  options: {
    name?: string;
    password?: string;
    plan?: "free" | "pro" | "team";
    members?: number;
    creditsLimit?: number;
    historyDays?: number;
  } = {},
): Promise<SeededTeam> {
  return seed("team", options);
}

/** An API client carrying one user's bearer key. */
export async function apiAs(user: SeededUser | { key: string }): Promise<APIRequestContext> {
  return requestContext({ baseURL: baseURL(), extraHTTPHeaders: { authorization: `Bearer ${user.key}` } });
}

export async function anonymous(): Promise<APIRequestContext> {
  return requestContext({ baseURL: baseURL() });
}

/** Asserts the status and that `detail` is a string carrying every given fragment; returns the detail. */
export async function expectError(res: APIResponse, status: number, ...fragments: string[]) {
  expect(res.status(), await res.text()).toBe(status);
  const body = await res.json();
  expect(typeof body.detail).toBe("string");
  for (const fragment of fragments) expect(body.detail).toContain(fragment);
  return body.detail as string;
}

/**
 * Playwright's test, with a report printed for a test that runs out of time: what the server, its
 * worker and the database were doing then (support/stall-report.ts).
 */
export const test = base.extend<{ stallReport: void }, { browser: Browser }>({
  // Every page, of the test's context or of one it makes, waits for hydration after a load.
  browser: [
    async ({ browser }, use) => {
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args) => {
        const context = await newContext(...args);
        context.on("page", waitForHydrationOnLoad);
        return context;
      };
      const newPage = browser.newPage.bind(browser);
      browser.newPage = async (...args) => {
        const page = await newPage(...args);
        waitForHydrationOnLoad(page);
        return page;
      };
      await use(browser);
    },
    { scope: "worker" },
  ],
  context: async ({ context }, provide) => {
    context.on("page", waitForHydrationOnLoad);
    context.pages().forEach(waitForHydrationOnLoad);
    await provide(context);
  },
  stallReport: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none
    async ({}, use, testInfo) => {
      const offset = serverLogOffset();
      await use();
      if (testInfo.status !== "timedOut") return;
      // Also printed again at the end of the run (support/summary-reporter.ts), where CI's tail shows it.
      const report = await stallReport(offset);
      console.log(report);
      await testInfo.attach(STALL_REPORT, { body: report, contentType: "text/plain" });
    },
    { auto: true },
  ],
});
export { expect };
