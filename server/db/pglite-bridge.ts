/**
 * The server's side of embedded PGlite on its own thread (server/db/pglite-thread.ts): what the
 * server uses of PGlite — statements and transactions (through server/db/pglite-thread-dialect.ts),
 * LISTEN, the backup's dump, close — each call a message to the thread and its answer back.
 *
 * In front of the one connection is a bounded queue: past MAX_WAITING statements waiting, a new
 * one (outside a transaction already begun) is refused with a 503 and Retry-After at once,
 * rather than every client waiting behind the backlog until it times out (issue 14).
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { BUSY_MESSAGE, HttpError } from '../http-error.ts';
import { startupMark } from '../startup-trace.ts';
import { currentImageFile, imageForNewDirectory } from './image.ts';
import { errorFrom, type PgliteAnswer, type PgliteEvent, type PgliteRequest, type PgliteThreadOptions } from './pglite-protocol.ts';

/** Statements waiting for the database, beyond which new ones are refused (see docs/decisions.md). */
export const MAX_WAITING = 256;
const RETRY_AFTER_SECONDS = 2;

/** The database's queue is full: 503 with Retry-After (server/app.ts sends the header). */
export class DatabaseBusy extends HttpError {
  readonly retryAfterSeconds = RETRY_AFTER_SECONDS;
  constructor() {
    super(503, BUSY_MESSAGE);
  }
}

type Request = PgliteRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;
interface Rows<T> {
  rows: T[];
  affectedRows?: number;
}

/** A transaction begun on the thread (`PgliteThread.begin`). */
export interface PgliteTransaction {
  query<T>(sql: string, params?: unknown[]): Promise<Rows<T>>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

export class PgliteThread {
  closed = false;
  /** True once open when the database was made by initdb (no image): the caller makes the image. */
  madeFresh = false;
  readonly waitReady: Promise<void>;
  /** Settles with the reason when the thread ends without `close()` (a crash): the database is gone. */
  readonly ended: Promise<Error>;
  /** The image file a new directory was unpacked from, or is to be made as when `madeFresh`. */
  readonly image: string | null;
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  readonly #listeners = new Map<string, Set<(payload: string) => void>>();
  #lastId = 0;
  /** Statements and transactions asked for outside a transaction, not answered yet. */
  #waiting = 0;

  constructor(options: PgliteThreadOptions) {
    this.image = options.image;
    this.#worker = new Worker(new URL('./pglite-thread.ts', import.meta.url), { workerData: options });
    let opened!: () => void;
    let failed!: (error: Error) => void;
    this.waitReady = new Promise<void>((resolve, reject) => {
      opened = resolve;
      failed = reject;
    });
    this.waitReady.catch(() => undefined);
    let endedUnexpectedly!: (error: Error) => void;
    this.ended = new Promise<Error>((resolve) => (endedUnexpectedly = resolve));
    this.#worker.on('message', (message: PgliteAnswer | PgliteEvent) => {
      if ('event' in message) {
        if (message.event === 'notification') for (const listener of this.#listeners.get(message.channel) ?? []) listener(message.payload);
        else if (message.event === 'ready') {
          this.madeFresh = message.madeFresh;
          opened();
        } else failed(errorFrom(message.error));
        return;
      }
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      if (message.ok) pending.resolve(message.value);
      else pending.reject(errorFrom(message.error));
    });
    // The thread died (out of memory, a crash in PostgreSQL): every caller hears it, none waits
    // forever, and `ended` tells whoever runs the server (main.ts stops it: a supervisor restarts it).
    let lostOnce = false;
    const lost = (error: Error) => {
      const unexpected = !this.closed && !lostOnce;
      lostOnce = true;
      this.closed = true;
      failed(error);
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
      if (unexpected) endedUnexpectedly(error);
    };
    this.#worker.on('error', lost);
    this.#worker.on('exit', (code) => lost(new Error(`the database thread ended (exit code ${code})`)));
  }

  /** Statements and transactions waiting for the database (reported on /metrics as cutdesk_db_waiting). */
  get waiting(): number {
    return this.#waiting;
  }

  #call<T>(request: Request, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.closed) return Promise.reject(new Error('PGlite is closed'));
    const id = (this.#lastId += 1);
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#worker.postMessage({ ...request, id }, transfer);
    });
  }

  /** A statement or a transaction from outside one: refused when the queue is full. */
  async #admitted<T>(request: Request): Promise<T> {
    if (this.#waiting >= MAX_WAITING) throw new DatabaseBusy();
    this.#waiting += 1;
    try {
      return await this.#call<T>(request);
    } finally {
      this.#waiting -= 1;
    }
  }

  query<T>(sql: string, params: unknown[] = []): Promise<Rows<T>> {
    return this.#admitted<Rows<T>>({ op: 'query', sql, params, tx: null });
  }

  /**
   * Begins PGlite's exclusive transaction: until it commits or rolls back, statements from
   * outside it wait on the thread (the transaction itself is never refused once begun).
   */
  async begin(): Promise<PgliteTransaction> {
    const tx = await this.#admitted<number>({ op: 'begin' });
    let open = true;
    const end = async (op: 'commit' | 'rollback') => {
      if (!open) return;
      open = false;
      await this.#call({ op, tx });
    };
    return {
      query: <R>(sql: string, params: unknown[] = []) => this.#call<Rows<R>>({ op: 'query', sql, params, tx }),
      commit: () => end('commit'),
      rollback: () => end('rollback'),
    };
  }

  /** LISTEN on `channel`; the answer stops listening (the server listens on one channel, once). */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    let listeners = this.#listeners.get(channel);
    if (!listeners) this.#listeners.set(channel, (listeners = new Set()));
    listeners.add(callback);
    await this.#call({ op: 'listen', channel });
    return async () => {
      listeners.delete(callback);
      if (listeners.size === 0) {
        this.#listeners.delete(channel);
        await this.#call({ op: 'unlisten', channel });
      }
    };
  }

  /** The database's files as one tarball (server/ops/backup). */
  async dumpDataDir(compression: 'none' | 'gzip' | 'auto' = 'auto'): Promise<Blob> {
    return new Blob([await this.#call<ArrayBuffer>({ op: 'dump', compression })]);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.#call({ op: 'close' });
    } finally {
      this.closed = true;
      await this.#worker.terminate();
    }
  }
}

/**
 * Starts embedded PGlite's thread for `dataDir/db` (or in memory). A new directory is unpacked
 * from this machine's migrated image (server/db/image.ts), named after the migrations, which
 * are loaded for that case only. Light to import (no Kysely): `npm start` calls it first thing.
 */
export async function startPgliteThread(options: { dataDir: string; inMemory?: boolean; migrated?: boolean }): Promise<PgliteThread> {
  if (options.inMemory) return new PgliteThread({ dataDir: 'memory://', image: options.migrated ? await currentImageFile() : null });
  const dir = join(options.dataDir, 'db');
  const thread = new PgliteThread({ dataDir: dir, image: await imageForNewDirectory(dir) });
  startupMark('database thread');
  return thread;
}
