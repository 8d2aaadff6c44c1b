import { spawnSync } from 'node:child_process';

/**
 * `npm run test:repeat -- [N] [unit|e2e|all] [-- extra args]`: runs the vitest suite, the
 * Playwright suite or both N times in a row (default 5 and all) and stops at the first
 * failure, so anyone can check a suspicion of a flaky test. Extra arguments go to the runner,
 * e.g. `npm run test:repeat -- 20 unit -- tests/workers/upload-engine.test.ts -t "no more memory"`.
 * A test that fails here is fixed at its root: never with retries, sleeps or longer timeouts.
 */

const USAGE = 'usage: npm run test:repeat -- [N] [unit|e2e|all] [-- runner args]';
const argv = process.argv.slice(2);
const split = argv.indexOf('--');
const own = split === -1 ? argv : argv.slice(0, split);
const extra = split === -1 ? [] : argv.slice(split + 1);

const runs = Number(own.find((arg) => /^\d+$/.test(arg)) ?? 5);
const which = own.find((arg) => !/^\d+$/.test(arg)) ?? 'all';
if (!Number.isInteger(runs) || runs < 1 || !['unit', 'e2e', 'all'].includes(which)) {
  console.error(USAGE);
  process.exit(2);
}

const suites: { name: string; command: string[] }[] = [];
if (which !== 'e2e') suites.push({ name: 'vitest', command: ['npx', 'vitest', 'run', ...extra] });
if (which !== 'unit') suites.push({ name: 'playwright', command: ['npx', 'playwright', 'test', ...extra] });

const started = Date.now();
for (let run = 1; run <= runs; run += 1) {
  for (const suite of suites) {
    const at = Date.now();
    console.log(`\n── ${suite.name}: run ${run} of ${runs} ──`);
    const result = spawnSync(suite.command[0]!, suite.command.slice(1), { stdio: 'inherit' });
    const seconds = ((Date.now() - at) / 1000).toFixed(0);
    if (result.status !== 0) {
      console.error(`\n${suite.name} failed on run ${run} of ${runs} (after ${seconds} s). Stopped.`);
      process.exit(result.status ?? 1);
    }
    console.log(`── ${suite.name}: run ${run} passed in ${seconds} s ──`);
  }
}
console.log(
  `\n${runs} ${runs === 1 ? 'run' : 'runs'} of ${suites.map((s) => s.name).join(' and ')} passed in a row (${((Date.now() - started) / 1000).toFixed(0)} s).`,
);
