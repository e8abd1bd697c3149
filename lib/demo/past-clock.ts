// The demo builder's clock: this process's `Date` set to a moment in the past, from which it runs on
// at its normal pace. Everything the product stamps (a run's times, a log's, a ledger entry's, an
// approval's, Prisma's `@default(now())`) reads `Date`, so the demo's history is made by the same
// code as any other, only earlier. Used only by lib/demo/build-demo-main.ts, a process of its own:
// no request or job of a server ever runs under it.

const RealDate = Date;
let offsetMs = 0;

class PastDate extends RealDate {
  constructor(...args: ConstructorParameters<DateConstructor> | []) {
    if (args.length === 0) super(RealDate.now() - offsetMs);
    else super(...args);
  }

  static override now() {
    return RealDate.now() - offsetMs;
  }
}

/** From now on this process's clock reads `at` (and moves on from there). */
export function setClock(at: number) {
  offsetMs = RealDate.now() - at;
  globalThis.Date = PastDate as DateConstructor;
}

/** Back to the real time. */
export function realClock() {
  offsetMs = 0;
  globalThis.Date = RealDate;
}

export const realNow = () => RealDate.now();
