import { inspect } from 'node:util';

/**
 * A full disk, said as such (issue 32). Node reports it as `ENOSPC` (or `EDQUOT`, a quota), the
 * embedded database's file system (Emscripten, inside PGlite) as an `ErrnoError` object that is
 * not an Error at all (errno 51, or 19 for a quota: WASI's numbers), which used to reach the
 * console as `Error: [object Object]`, and PostgreSQL as SQLSTATE 53100 (disk_full).
 */

const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', '53100']);
/** WASI errno numbers Emscripten's ErrnoError carries: 51 ENOSPC, 19 EDQUOT. */
const WASI_DISK_FULL = new Set([51, 19]);

/** Whether `error` (or one of its causes) says the disk, or the user's quota on it, is full. */
export function isDiskFull(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; current = (current as { cause?: unknown }).cause, depth += 1) {
    const { code, errno, name } = current as { code?: unknown; errno?: unknown; name?: unknown };
    if (typeof code === 'string' && DISK_FULL_CODES.has(code)) return true;
    if (name === 'ErrnoError' && typeof errno === 'number' && WASI_DISK_FULL.has(errno)) return true;
  }
  return false;
}

/** `The disk is full: <what> failed …`, naming the directory whose file system has no room left. */
export function diskFullMessage(what: string, directory: string): string {
  return `The disk is full: ${what} failed, no space is left on the file system of ${directory}. Free some space there (df -h ${directory} shows it) and try again.`;
}

/** A failure that is a full disk, with the message to show (what failed, where, what to do). */
export class DiskFullError extends Error {
  readonly code = 'ENOSPC';
  constructor(what: string, directory: string, cause: unknown) {
    super(diskFullMessage(what, directory), { cause });
    this.name = 'DiskFullError';
  }
}

/** Rethrows `error` as a DiskFullError when it is a full disk, as it is otherwise. */
export function rethrowDiskFull(error: unknown, what: string, directory: string): never {
  if (isDiskFull(error) && !(error instanceof DiskFullError)) throw new DiskFullError(what, directory, error);
  throw error;
}

/**
 * What to print when the server cannot start (server/main.ts): a full disk in words, with the
 * data directory to free space in; an Error as its stack; anything else thrown (PGlite's file
 * system throws plain objects) as what it holds, never `[object Object]`.
 */
export function startFailureMessage(error: unknown, dataDir: string): string {
  if (error instanceof DiskFullError) return error.message;
  if (isDiskFull(error)) return diskFullMessage('starting the server (writing the data directory)', dataDir);
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return `The server could not start: ${inspect(error, { depth: 3, breakLength: Infinity })}`;
}
