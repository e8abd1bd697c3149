import { seed } from "../fixtures";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a run row read untyped; a wrong shape fails the caller's assertion

/** Polls a workflow run until it has ended (success, error, stopped or refused); throws with its row after `timeoutMs`. */
export async function waitForRun(runId: string, timeoutMs = 30_000): Promise<Json> {
  for (const until = Date.now() + timeoutMs; ;) {
    const run = await seed<Json | null>("workflowRun", { id: runId });
    if (run && ["success", "error", "stopped", "refused"].includes(run.status)) return run;
    if (Date.now() > until) throw new Error(`run ${runId} did not end: ${JSON.stringify(run)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
