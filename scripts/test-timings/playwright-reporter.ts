import type { FullConfig, FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { projectPath, writeTimings, type RunTimings } from './record.ts';

/**
 * Playwright's side of the timing summary (scripts/test-timings.ts). A file's time is the sum
 * of its tests' (hooks included); its tests may have run on several workers at once.
 */
export default class TimingsReporter implements Reporter {
  #started = Date.now();
  #workers = 1;
  readonly #files = new Map<string, { ms: number; tests: number }>();
  readonly #outcomes = new Map<TestCase, TestResult['status']>();

  onBegin(config: FullConfig): void {
    this.#started = Date.now();
    this.#workers = config.workers;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const file = projectPath(test.location.file);
    const entry = this.#files.get(file) ?? { ms: 0, tests: 0 };
    entry.ms += result.duration;
    if (!this.#outcomes.has(test)) entry.tests += 1;
    this.#files.set(file, entry);
    this.#outcomes.set(test, result.status);
  }

  onEnd(_result: FullResult): void {
    const outcomes = [...this.#outcomes.values()];
    const timings: RunTimings = {
      runner: 'playwright',
      wallMs: Date.now() - this.#started,
      workers: this.#workers,
      passed: outcomes.filter((status) => status === 'passed').length,
      failed: outcomes.filter((status) => status === 'failed' || status === 'timedOut' || status === 'interrupted').length,
      skipped: outcomes.filter((status) => status === 'skipped').length,
      files: [...this.#files].map(([file, { ms, tests }]) => ({ file, ms: Math.round(ms), tests })),
    };
    writeTimings(timings);
  }
}
