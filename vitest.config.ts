import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: 1 on a 2-core machine, where the files
    // wait on PostgreSQL, ffmpeg and sockets often enough that 2 finish sooner (docs/testing.md).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The default reporter, and each file's time for the summary `.ci/run` prints (scripts/test-timings.ts).
    reporters: ['default', './scripts/test-timings/vitest-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
