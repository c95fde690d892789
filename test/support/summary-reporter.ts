// Prints the plain closing line CI reads: `N passed, N failed, N skipped`. A test file that
// fails to load, or an unhandled error, counts as a failure.
import type { Reporter, TestModule } from "vitest/node";

type SerializedErrorList = ReadonlyArray<unknown>;

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: SerializedErrorList): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      if (module.errors().length > 0) failed += 1;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed += 1;
        else if (state === "failed") failed += 1;
        else skipped += 1;
      }
    }
    failed += unhandledErrors.length;
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
