import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "@/lib/config/env";
import { processAlive } from "@/lib/server/process-alive";

// Where the `npm start` serving this data directory answers, for the commands that print its
// address (`cli demo`): the CLI runs without the server's PORT or APP_URL in its environment.

const serverFile = () => join(dataDir, "server.json");

type RunningServer = { url: string; pid: number };

/** Called by `npm start` once its server answers; the record goes when that process exits. */
export function recordRunningServer(url: string) {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(serverFile(), `${JSON.stringify({ url, pid: process.pid } satisfies RunningServer, null, 2)}\n`);
  process.once("exit", () => {
    // Only our own record: a second `npm start` on the same data may have written its own since.
    if (runningServer()?.pid === process.pid) rmSync(serverFile(), { force: true });
  });
}

/** The URL of the `npm start` that serves this data directory, or null when none runs. */
export function runningServerUrl(): string | null {
  const server = runningServer();
  return server && processAlive(server.pid) ? server.url : null;
}

function runningServer(): RunningServer | null {
  if (!existsSync(serverFile())) return null;
  try {
    const parsed = JSON.parse(readFileSync(serverFile(), "utf8")) as Partial<RunningServer>;
    return typeof parsed.url === "string" && Number.isSafeInteger(parsed.pid) && parsed.pid! > 0
      ? { url: parsed.url, pid: parsed.pid! }
      : null;
  } catch {
    // Half-written or edited by hand: as if no server had said where it runs.
    return null;
  }
}
