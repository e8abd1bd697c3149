import type { FullResult, Reporter, TestCase, TestResult } from "@playwright/test/reporter";

/** Ends the run with the plain line CI reads: "tests: N passed, N failed, N skipped". */
export default class SummaryReporter implements Reporter {
  private counts = { passed: 0, failed: 0, skipped: 0 };
  onTestEnd(test: TestCase, result: TestResult) {
    if (result.retry < test.retries && result.status !== "passed" && result.status !== "skipped") return;
    const outcome = test.outcome();
    if (outcome === "skipped") this.counts.skipped++;
    else if (outcome === "expected" || outcome === "flaky") this.counts.passed++;
    else this.counts.failed++;
  }
  onEnd(_result: FullResult) {
    console.log(`\ntests: ${this.counts.passed} passed, ${this.counts.failed} failed, ${this.counts.skipped} skipped`);
  }
}
