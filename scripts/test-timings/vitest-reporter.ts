import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { projectPath, writeTimings } from './record.ts';

/** vitest's side of the timing summary (scripts/test-timings.ts): each file's own time. */
export default class TimingsReporter implements Reporter {
  #started = 0;
  #workers = 1;

  onInit(vitest: Vitest): void {
    this.#started = Date.now();
    this.#workers = vitest.config.maxWorkers;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const files = modules.map((module) => {
      const diagnostic = module.diagnostic();
      let tests = 0;
      for (const test of module.children.allTests()) {
        tests += 1;
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
      const ms = diagnostic.environmentSetupDuration + diagnostic.prepareDuration + diagnostic.setupDuration + diagnostic.collectDuration + diagnostic.duration;
      return { file: projectPath(module.moduleId), ms: Math.round(ms), tests };
    });
    writeTimings({ runner: 'vitest', wallMs: Date.now() - this.#started, workers: this.#workers, passed, failed, skipped, files });
  }
}
