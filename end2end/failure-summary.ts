import type { FullResult, Reporter, TestCase, TestResult } from "@playwright/test/reporter";

/**
 * Prints each failed test's title and the first lines of its error as the run's very last
 * output, after the list reporter's attachments, so a log that keeps only its tail still says
 * what failed and why.
 */
export default class FailureSummary implements Reporter {
  private failures: string[] = [];

  onTestEnd(test: TestCase, result: TestResult) {
    if (result.status === "passed" || result.status === "skipped") return;
    const message = (result.error?.message ?? result.status)
      // Colour codes out: the summary is read as plain text.
      .replace(/\u001b\[[0-9;]*m/g, "")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .slice(0, 12)
      .join("\n    ");
    this.failures.push(`${test.titlePath().slice(1).join(" › ")}\n    ${message}`);
  }

  onEnd(_result: FullResult) {
    if (this.failures.length === 0) return;
    console.log(`\nFailed (${this.failures.length}):`);
    for (const failure of this.failures) console.log(`  ${failure}`);
  }

  printsToStdio() {
    return true;
  }
}
