import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    environment: 'node',
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: 1 on a 2-core machine, where the files
    // wait on PostgreSQL, ffmpeg and sockets often enough that 2 finish sooner (docs/testing.md).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The default reporter, and each file's time for the summary `.ci/run` prints (scripts/test-timings.ts).
    reporters: ['default', './scripts/test-timings/vitest-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      // A worker keeps its imported modules from one file to the next instead of importing the
      // server, PGlite and the AWS SDK again for every file: 130 s → 90 s for tests/server on
      // PGlite (docs/testing.md). Every file opens and closes its own servers, databases and
      // stores, so nothing a test depends on outlives its file.
      { test: { name: 'shared', include: ['tests/**/*.test.ts'], exclude: ['tests/lib/**'], isolate: false } },
      // These replace modules (vi.mock) and globals (localStorage) at import: kept to their file.
      { test: { name: 'isolated', include: ['tests/lib/**/*.test.ts'], isolate: true } },
    ],
  },
});
