import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * `npm run test:under-load -- [N] [--minutes M]`: the whole suite (`npm test`) N times in a row
 * (default 3) while one busy loop per core pins the machine, as on a shared CI runner where
 * other work runs beside the tests. Stops at the first failure. A test that fails here only is a
 * flaky test: fixed at its root (an awaited condition, a state set before it is announced),
 * never with retries, sleeps or longer timeouts.
 *
 * Bounded: the loops end with this script, and each also ends by itself after M minutes
 * (default 30 per run), so nothing is left spinning if this script is killed.
 */
const USAGE = 'usage: npm run test:under-load -- [N] [--minutes M]';
const argv = process.argv.slice(2);
const minutesAt = argv.indexOf('--minutes');
const minutes = minutesAt === -1 ? null : Number(argv[minutesAt + 1]);
const runsArg = argv.find((arg, index) => /^\d+$/.test(arg) && index !== minutesAt + 1);
const runs = Number(runsArg ?? 3);
if (!Number.isInteger(runs) || runs < 1 || (minutes !== null && !(minutes > 0))) {
  console.error(USAGE);
  process.exit(2);
}

const cores = availableParallelism();
const deadline = Date.now() + (minutes ?? 30 * runs) * 60_000;
// Each loop checks the clock itself: it ends by the deadline even when nobody is left to stop it.
const LOOP = `const end = ${deadline}; let n = 0; while (Date.now() < end) n += Math.sqrt(n % 7);`;
const loops: ChildProcess[] = Array.from({ length: cores }, () => spawn(process.execPath, ['-e', LOOP], { stdio: 'ignore' }));
const stopLoops = () => {
  for (const loop of loops) if (loop.exitCode === null) loop.kill('SIGKILL');
};
process.on('exit', stopLoops);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopLoops();
    process.exit(130);
  });
}
console.log(`${cores} busy loops pin every core until ${new Date(deadline).toISOString()} at the latest.`);

const started = Date.now();
const times: string[] = [];
let failed = false;
for (let run = 1; run <= runs; run += 1) {
  if (Date.now() >= deadline) {
    console.error(`\nThe loops' time (${minutes ?? 30 * runs} min) ran out before run ${run}. Stopped.`);
    failed = true;
    break;
  }
  console.log(`\n── npm test under load: run ${run} of ${runs} ──`);
  const at = Date.now();
  const result = spawnSync('npm', ['test'], { stdio: 'inherit' });
  const took = `${((Date.now() - at) / 60_000).toFixed(1)} min`;
  times.push(took);
  if (result.status !== 0) {
    console.error(`\nnpm test failed under load on run ${run} of ${runs} (after ${took}). Stopped.`);
    failed = true;
    break;
  }
  console.log(`── run ${run} passed in ${took} ──`);
}
stopLoops();
if (!failed)
  console.log(
    `\n${runs} ${runs === 1 ? 'run' : 'runs'} of npm test passed in a row under load (${times.join(', ')}; ${((Date.now() - started) / 60_000).toFixed(1)} min in all).`,
  );
process.exit(failed ? 1 : 0);
