import { readTimings, type RunTimings } from './test-timings/record.ts';

/**
 * `node scripts/test-timings.ts [N]`: the last run's timing summary, left by the timing
 * reporters of vitest and Playwright (scripts/test-timings/): wall time, workers, and the N
 * slowest files of each (default 10). `.ci/run` prints it at the end of every run, so drift
 * shows at every stop; docs/testing.md keeps the top 20 of a measured run.
 */
// Imported by scripts/test-suite.ts too, whose own argument (`quick`) is no number: then 10.
const top = /^\d+$/.test(process.argv[2] ?? '') ? Number(process.argv[2]) : 10;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

let passed = 0;
let failed = 0;
const runs = (['vitest', 'playwright'] as const).map(readTimings).filter((run): run is RunTimings => run !== null);
for (const run of runs) {
  passed += run.passed;
  failed += run.failed;
  const busy = run.files.reduce((sum, file) => sum + file.ms, 0);
  console.log(
    `\n${run.runner}: ${seconds(run.wallMs)} on ${run.workers} workers, ${run.files.length} files (${seconds(busy)} of file time); ${run.passed} passed, ${run.failed} failed, ${run.skipped} skipped`,
  );
  console.log(`  slowest ${Math.min(top, run.files.length)}:`);
  for (const file of run.files.slice(0, top)) console.log(`  ${seconds(file.ms).padStart(9)}  ${String(file.tests).padStart(4)} tests  ${file.file}`);
}
if (runs.length === 0) console.log('No timings: run the suite first (npm test).');
else console.log(`\ntests: ${passed} passed, ${failed} failed`);
