import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * What each test runner's timing reporter leaves after a run (vitest and Playwright), for
 * `node scripts/test-timings.ts` to print: the run's wall time and each file's own time.
 * A file's time is what it held a worker: its import, its hooks and its tests.
 */
export interface RunTimings {
  runner: 'vitest' | 'playwright';
  /** The run's wall-clock time, ms. */
  wallMs: number;
  /** Workers the runner used. */
  workers: number;
  passed: number;
  failed: number;
  skipped: number;
  files: { file: string; ms: number; tests: number }[];
}

const ROOT = resolve(import.meta.dirname, '..', '..');
/** Where the reporters write: beside the other scratch files, never committed. */
export const TIMINGS_DIR = process.env.TEST_TIMINGS_DIR ? resolve(process.env.TEST_TIMINGS_DIR) : join(ROOT, '.tmp', 'test-timings');

export function timingsFile(runner: RunTimings['runner']): string {
  return join(TIMINGS_DIR, `${runner}.json`);
}

export function projectPath(file: string): string {
  return relative(ROOT, file);
}

export function writeTimings(timings: RunTimings): void {
  const file = timingsFile(timings.runner);
  mkdirSync(dirname(file), { recursive: true });
  timings.files.sort((a, b) => b.ms - a.ms);
  writeFileSync(file, `${JSON.stringify(timings, null, 1)}\n`);
}

export function readTimings(runner: RunTimings['runner']): RunTimings | null {
  try {
    return JSON.parse(readFileSync(timingsFile(runner), 'utf8')) as RunTimings;
  } catch {
    return null;
  }
}

/** Forgets the last run's timings, so a summary never shows a part that did not run this time. */
export function clearTimings(): void {
  rmSync(TIMINGS_DIR, { recursive: true, force: true });
}
