import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { clearTimings } from './test-timings/record.ts';

/**
 * `npm test` (and `npm run test:quick`, with `quick`): the suite in stages, each running its
 * parts side by side with every line of output labelled by its part. The suite is CPU-bound on
 * a 2-core machine; tsc and ESLint use one core each, so they run side by side (with the build).
 *
 * Every part of a stage runs to its end even when another fails, so one run reports every
 * failure; a failed stage stops the run (a type error fails in a minute, not after the e2e).
 * The exit code is the first failure's. The timing summary follows (scripts/test-timings.ts).
 */
interface Part {
  name: string;
  command: string[];
  env?: Record<string, string | undefined>;
}

const SUITES: Record<'full' | 'quick', Part[][]> = {
  full: [
    [
      { name: 'typecheck', command: ['npm', 'run', '--silent', 'typecheck'] },
      { name: 'lint', command: ['npm', 'run', '--silent', 'lint'] },
      // The app the e2e server serves (scripts/start.ts builds it only when missing or stale):
      // built here, where tsc and ESLint leave a core free, instead of at the start of the e2e.
      { name: 'build', command: ['npm', 'run', '--silent', 'build'] },
    ],
    // One after the other: side by side (measured) they took as long in all, and the CPU-heavy
    // files (uploads, zips, ffmpeg) ran 2–5× slower, which made a 30 s test time out.
    [{ name: 'unit', command: ['npm', 'run', '--silent', 'test:unit'] }],
    [{ name: 'e2e', command: ['npm', 'run', '--silent', 'test:e2e'] }],
  ],
  // The inner loop, in one stage: tsc -b checks only the projects whose files changed and
  // ESLint only the files that did (its cache), so beside the domain, worker and server tests
  // on PGlite they take little; every answer comes in the one run.
  quick: [
    [
      { name: 'typecheck', command: ['npm', 'run', '--silent', 'typecheck'] },
      { name: 'lint', command: ['npm', 'run', '--silent', 'lint'] },
      { name: 'unit', command: ['npx', 'vitest', 'run', 'tests/domain', 'tests/workers', 'tests/server'], env: { TEST_DATABASE_URL: undefined } },
    ],
  ],
};

/** The cache `npm start` keeps too (scripts/start.ts), so the e2e's server finds the suite's. */
const NODE_COMPILE_CACHE = fileURLToPath(new URL('../node_modules/.cache/cutdesk/node-compile-cache', import.meta.url));
const suite = process.argv[2] === 'quick' ? 'quick' : 'full';
const STAGES = SUITES[suite];

interface Outcome {
  name: string;
  code: number;
  seconds: number;
}

function run({ name, command, env }: Part, width: number): Promise<Outcome> {
  const started = Date.now();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    FORCE_COLOR: process.env.FORCE_COLOR ?? '0',
    // Node keeps the code it compiled for each module (TypeScript stripped included) and loads it
    // again in every later process: the suite starts `server/main.ts` (which, unlike `npm start`,
    // enables no cache itself), `npm run backup` and the other scripts dozens of times (0.63× the
    // CPU of loading the server's modules, docs/testing.md).
    NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? NODE_COMPILE_CACHE,
  };
  for (const [key, value] of Object.entries(env ?? {})) {
    if (value === undefined) delete childEnv[key];
    else childEnv[key] = value;
  }
  const child = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv });
  const label = `[${name}]`.padEnd(width + 2);
  for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', (line) => console.log(`${label} ${line}`));
  return new Promise((resolve) => {
    child.on('close', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), seconds: (Date.now() - started) / 1000 }));
  });
}

const width = Math.max(...STAGES.flat().map((part) => part.name.length));
const outcomes: Outcome[] = [];
const started = Date.now();
clearTimings();
for (const stage of STAGES) {
  outcomes.push(...(await Promise.all(stage.map((part) => run(part, width)))));
  if (outcomes.some((outcome) => outcome.code !== 0)) break;
}

console.log(`\nThe ${suite === 'quick' ? 'quick ' : ''}suite in ${((Date.now() - started) / 1000).toFixed(0)} s:`);
for (const { name, code, seconds } of outcomes)
  console.log(`  ${name.padEnd(width)}  ${code === 0 ? 'passed' : `FAILED (exit ${code})`}  ${seconds.toFixed(0)} s`);
await import('./test-timings.ts');
process.exit(outcomes.find((outcome) => outcome.code !== 0)?.code ?? 0);
