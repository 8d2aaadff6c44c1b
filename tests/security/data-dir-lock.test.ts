import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../server/data-dir-lock.ts';
import { portOf, startServerProcess, type ServerProcess } from './server-process.ts';

/**
 * Issue 9: embedded PGlite has no file locking, so one server process per data directory.
 * Real processes: the second one refuses to start naming the first; a dead one's lock is taken
 * over; the lock goes with a clean stop.
 */
describe('one server process per data directory', () => {
  let dataDir: string;
  const running: ServerProcess[] = [];
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cutdesk-lock-'));
  });
  afterAll(async () => {
    for (const server of running) if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a second server on the same directory, naming the first', async () => {
    const first = startServerProcess(dataDir);
    running.push(first);
    await portOf(first);
    const lock = JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')) as { pid: number };
    expect(lock.pid).toBe(first.child.pid);

    const second = startServerProcess(dataDir);
    running.push(second);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`Another Cutdesk server (process ${first.child.pid} on ${hostname()}`);
    expect(second.output()).toContain(dataDir);
    // The first one is untouched and still holds the directory.
    expect(first.child.exitCode).toBeNull();

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  }, 120_000);

  it('takes over the lock of a process that died', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid;
    writeFileSync(join(dataDir, LOCK_FILE), JSON.stringify({ pid: dead, host: hostname(), startedAt: new Date(0).toISOString() }));
    const server = startServerProcess(dataDir);
    running.push(server);
    await portOf(server);
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(server.child.pid);
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  }, 120_000);
});
