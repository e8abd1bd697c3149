// A CLI and seed process that stays up: `hostWith(env)` in e2e/fixtures.ts forks it once with an
// environment (another database, another TZ) and sends it one command at a time over IPC. Each
// command runs exactly what `lib/cli/main.ts` or `e2e/support/seed.ts` would run in a process of
// its own with that environment; only Node's start (about a second of CPU) is paid once.
import { runCli } from "@/lib/cli/run-cli";
import { seedCommands } from "./seed-commands";

export type HostCommand = { kind: "cli"; args: string[] } | { kind: "seed"; command: string; args: object };
type HostRequest = { id: number } & HostCommand;
export type HostAnswer = { id: number; code: number; stdout: string };

async function answer(request: HostRequest): Promise<Omit<HostAnswer, "id">> {
  if (request.kind === "cli") return runCli(request.args);
  try {
    return { code: 0, stdout: JSON.stringify(await seedCommands[request.command](request.args)) };
  } catch (e) {
    return { code: 1, stdout: String((e as Error)?.stack ?? e) };
  }
}

// One command at a time, in the order sent, as one process after another would run them.
let queue: Promise<unknown> = Promise.resolve();
process.on("message", (request: HostRequest) => {
  queue = queue.then(async () => process.send!({ id: request.id, ...(await answer(request)) } satisfies HostAnswer));
});
process.on("disconnect", () => process.exit(0));
