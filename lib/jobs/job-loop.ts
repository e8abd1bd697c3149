import "server-only";
import { logger } from "@/lib/observability/logger";
import { jobSignal } from "@/lib/db/commit-signals";

// The one loop every background job of an instance runs on (webhook deliveries, workflow runs and
// their schedules, the expiry of approval requests): a poll every `pollMs` for work that became
// due (a retry's time, another process's write, an expired lease), a wake-up from a commit in this
// process (lib/db/commit-signals.ts), and no overlap: a call that arrives while `work` runs makes it run
// once more afterwards. `work` returns true when it may have left due work behind (a full batch).

export type JobLoopOptions = { name: string; pollMs: number; work: () => Promise<boolean | void> };

export class JobLoop {
  private running = false;
  private again = false;
  private started = false;

  constructor(private readonly options: JobLoopOptions) {}

  start() {
    if (this.started) return this;
    this.started = true;
    setInterval(() => this.tick(), this.options.pollMs).unref();
    jobSignal(this.options.name).kick = () => this.tick();
    this.tick();
    return this;
  }

  /** Runs `work` now, or once more after the current run. */
  tick() {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void (async () => {
      try {
        do {
          this.again = false;
          if (await this.options.work()) this.again = true;
        } while (this.again);
      } catch (e) {
        logger.warn(`${this.options.name}: job loop failed; trying again at the next poll`, { error: e });
      } finally {
        this.running = false;
      }
    })();
  }
}

const loops = ((globalThis as { __patchbayJobLoops?: Map<string, JobLoop> }).__patchbayJobLoops ??= new Map<
  string,
  JobLoop
>());

/** This process's loop named `options.name`, started once. */
export function startJobLoop(options: JobLoopOptions): JobLoop {
  let loop = loops.get(options.name);
  if (!loop) loops.set(options.name, (loop = new JobLoop(options).start()));
  return loop;
}

/** Keeps a claim's lease while its work runs: `renew` every `everyMs`; stop() when done. */
export function keepLease(renew: () => Promise<unknown>, everyMs: number): () => void {
  const timer = setInterval(
    () => void renew().catch((e) => logger.warn("lease renewal failed", { error: e })),
    everyMs,
  );
  timer.unref();
  return () => clearInterval(timer);
}
