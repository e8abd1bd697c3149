import type { FullResult, Reporter, TestCase, TestResult } from "@playwright/test/reporter";

/**
 * Ends the run with the plain line CI reads: "tests: N passed, N failed, N skipped", after the
 * stall reports of the tests that timed out (e2e/support/stall-report.ts), so the end of the log
 * says what they waited on.
 */
/** The attachment a timed-out test's stall report comes in (e2e/fixtures.ts). */
export const STALL_REPORT = "stall report";

export default class SummaryReporter implements Reporter {
  private counts = { passed: 0, failed: 0, skipped: 0 };
  private stalls: string[] = [];
  onTestEnd(test: TestCase, result: TestResult) {
    for (const a of result.attachments)
      if (a.name === STALL_REPORT && a.body)
        this.stalls.push(`${test.titlePath().slice(1).join(" › ")}\n${a.body.toString()}`);
    if (result.retry < test.retries && result.status !== "passed" && result.status !== "skipped") return;
    const outcome = test.outcome();
    if (outcome === "skipped") this.counts.skipped++;
    else if (outcome === "expected" || outcome === "flaky") this.counts.passed++;
    else this.counts.failed++;
  }
  onEnd(_result: FullResult) {
    for (const stall of this.stalls) console.log(`\n${stall}`);
    console.log(`\ntests: ${this.counts.passed} passed, ${this.counts.failed} failed, ${this.counts.skipped} skipped`);
  }
}
