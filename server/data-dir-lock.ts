import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const LOCK_FILE = 'server.lock';

interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
}

export class DataDirLockedError extends Error {
  readonly owner: LockOwner;
  constructor(dataDir: string, owner: LockOwner) {
    super(
      `Another Cutdesk server (process ${owner.pid} on ${owner.host}, started ${owner.startedAt}) is using the data directory ${dataDir}.\n` +
        'Stop that server first, or give this one another DATA_DIR. (The embedded database has no locking of its own: two servers on one directory would corrupt it.)',
    );
    this.owner = owner;
  }
}

export interface DataDirLock {
  release(): void;
}

function readOwner(file: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' ? { pid: owner.pid, host: String(owner.host ?? ''), startedAt: String(owner.startedAt ?? '') } : null;
  } catch {
    return null; // missing, half-written or not ours: treated as no owner
  }
}

/** Whether process `pid` of this machine is alive (EPERM: alive, but someone else's). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the data directory for this process: a lock file created exclusively (O_EXCL) holding
 * this pid. Another live process's lock makes this throw DataDirLockedError naming it; the lock
 * of a dead process (a crash, a kill -9) on this machine is taken over. A lock written on another
 * machine (a shared volume) is never taken over: its process cannot be checked from here.
 * The lock is released on `release()` and, as a fallback, when the process exits.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, LOCK_FILE);
  const me: LockOwner = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  // Written whole beside the lock, then linked into place: link() fails when the lock exists,
  // and nobody can ever read a half-written lock.
  const draft = `${file}.${process.pid}`;
  writeFileSync(draft, JSON.stringify(me), { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        linkSync(draft, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const owner = readOwner(file);
        // Our own pid in a lock we do not hold is a previous life of this process number (a
        // container restarted as pid 1): stale.
        const live = owner && (owner.host !== me.host || (owner.pid !== process.pid && isAlive(owner.pid)));
        if (owner && live) throw new DataDirLockedError(dataDir, owner);
        takeOverStale(file, owner);
        continue;
      }
      return holdLock(file, me);
    }
  } finally {
    rmSync(draft, { force: true });
  }
  throw new Error(`Could not take the lock ${file}: it keeps changing hands.`);
}

function holdLock(file: string, me: LockOwner): DataDirLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    // Only our own lock: never remove one another process took over meanwhile.
    if (readOwner(file)?.pid === me.pid) unlinkSync(file);
  };
  process.on('exit', release);
  return { release };
}

/**
 * Moves a stale lock aside (rename is atomic, so of two processes taking it over only one moves
 * it) and checks that what was moved is the stale lock seen, not a fresh one just written by a
 * process that won the race; a fresh one is put back.
 */
function takeOverStale(file: string, seen: LockOwner | null): void {
  const aside = `${file}.stale-${process.pid}`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // already gone: try again
    throw error;
  }
  const moved = readOwner(aside);
  if (moved && seen && moved.pid !== seen.pid) {
    renameSync(aside, file);
    return;
  }
  unlinkSync(aside);
}
