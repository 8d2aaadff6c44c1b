/**
 * The messages between the server's thread and the thread that runs embedded PGlite
 * (server/db/pglite-thread.ts, server/db/pglite-bridge.ts). No imports: both ends load it.
 */

/** What the server's thread asks; `id` pairs each request with its answer. */
export type PgliteRequest =
  | { id: number; op: 'query'; sql: string; params: unknown[]; tx: number | null }
  | { id: number; op: 'begin' }
  | { id: number; op: 'commit' | 'rollback'; tx: number }
  | { id: number; op: 'listen' | 'unlisten'; channel: string }
  | { id: number; op: 'dump'; compression: 'none' | 'gzip' | 'auto' }
  | { id: number; op: 'close' };

/** A PostgreSQL error's fields, as pg and PGlite name them (server/db/errors.ts reads `code`). */
export interface PgliteErrorFields {
  message: string;
  name: string;
  code?: string;
  detail?: string;
  hint?: string;
  severity?: string;
  schema?: string;
  table?: string;
  column?: string;
  constraint?: string;
}

export type PgliteAnswer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: PgliteErrorFields };

/** A notification heard on a channel the server listens to, or the thread's readiness. */
export type PgliteEvent =
  { event: 'notification'; channel: string; payload: string } | { event: 'ready'; madeFresh: boolean } | { event: 'failed'; error: PgliteErrorFields };

/** How the thread opens the database. */
export interface PgliteThreadOptions {
  /** `memory://` or the database directory. */
  dataDir: string;
  /** A migrated image to unpack into a new `dataDir` first (server/db/image.ts), or null. */
  image: string | null;
}

const FIELDS = ['code', 'detail', 'hint', 'severity', 'schema', 'table', 'column', 'constraint'] as const;

/** Emscripten's errno numbers (WASI's) that PGlite's file system throws, by name (issue 32). */
const WASI_ERRNO: Record<number, string> = {
  2: 'EACCES',
  19: 'EDQUOT',
  20: 'EEXIST',
  29: 'EIO',
  44: 'ENOENT',
  51: 'ENOSPC',
  54: 'ENOTDIR',
  63: 'EPERM',
  69: 'EROFS',
};

/** An error as plain data (a structured clone keeps only an Error's message and stack). */
export function errorFields(error: unknown): PgliteErrorFields {
  if (!(error instanceof Error)) {
    // PGlite's file system throws `ErrnoError` objects, not Errors ({ name, errno }): without
    // this a full disk at the first start read `Error: [object Object]`. The errno's name is the
    // code, as Node's own file system errors have it (ENOSPC).
    const { name, errno } = (error ?? {}) as { name?: unknown; errno?: unknown };
    if (name === 'ErrnoError' && typeof errno === 'number') {
      const code = WASI_ERRNO[errno] ?? `errno ${errno}`;
      return {
        name: 'ErrnoError',
        message: `${code}: the embedded database could not read or write its files (${code === 'ENOSPC' ? 'no space left on device' : `file system error ${errno}`})`,
        ...(WASI_ERRNO[errno] && { code }),
      };
    }
    let message = String(error);
    try {
      if (typeof error === 'object' && error !== null) message = JSON.stringify(error);
    } catch {
      // a cycle: String() it is
    }
    return { name: 'Error', message };
  }
  const fields: PgliteErrorFields = { name: error.name, message: error.message };
  for (const key of FIELDS) {
    const value = (error as unknown as Record<string, unknown>)[key];
    if (typeof value === 'string') fields[key] = value;
  }
  return fields;
}

/** The error again, with the fields callers test (`code` for a unique violation). */
export function errorFrom(fields: PgliteErrorFields): Error {
  const error = new Error(fields.message);
  error.name = fields.name;
  for (const key of FIELDS) if (fields[key] !== undefined) (error as unknown as Record<string, unknown>)[key] = fields[key];
  return error;
}
