import { join } from 'node:path';
import { CamelCasePlugin, Kysely, PGliteDialect, PostgresDialect, type PGlite as KyselyPglite } from 'kysely';
import { SortKeysPlugin } from './sort-keys.ts';
import type { Database } from './schema.ts';
import { startupMark } from '../startup-trace.ts';
import { currentImageFile, imageForNewDirectory, imageTarball, saveImage, startFromImage } from './image.ts';
import { DATE, INT8, NUMERIC, PGLITE_PARSERS } from './pg-types.ts';
import type { PgliteThread } from './pglite-bridge.ts';
import { CHANGES_CHANNEL } from './listen.ts';

export type Db = Kysely<Database>;

/** What the server uses of embedded PGlite, in this thread or on one of its own (server/db/pglite-bridge.ts). */
export interface EmbeddedPglite {
  readonly closed: boolean;
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
  dumpDataDir(compression?: 'none' | 'gzip' | 'auto'): Promise<Blob>;
  /** Statements waiting for the database (PGlite on its own thread; in this thread none ever wait). */
  readonly waiting?: number;
}

/** The embedded database behind each PGlite `Db`, for what Kysely cannot do (LISTEN: server/events/). */
const EMBEDDED = new WeakMap<Db, EmbeddedPglite>();

/** The PGlite instance `db` runs on, or undefined for PostgreSQL (or a `Db` opened elsewhere). */
export function embeddedPglite(db: Db): EmbeddedPglite | undefined {
  return EMBEDDED.get(db);
}

/** The connection pool behind a PostgreSQL `Db` (its use is reported on /metrics), or undefined for PGlite. */
const POOLS = new WeakMap<Db, import('pg').Pool>();
export function postgresPool(db: Db): import('pg').Pool | undefined {
  return POOLS.get(db);
}

/** Who hears the changes channel's notifications that arrive on the pool's connections. */
const POOL_HEARERS = new WeakMap<Db, Set<(payload: string) => void>>();

/**
 * Every pooled connection LISTENs on the changes channel (server/db/listen.ts), because PostgreSQL
 * tells a listening session of its own notifications right after its commit, before the commit
 * returns: a write made through this pool is heard before the request that made it is answered,
 * so what this instance keeps in memory (server/services/remembered-rows.ts) is never older than
 * its own writes. Writes through other connections are heard on the instance's own listener.
 * The LISTEN is queued ahead of the connection's first statement.
 */
function hearChangesOnEveryConnection(db: Db, pool: import('pg').Pool): void {
  const hearers = new Set<(payload: string) => void>();
  POOL_HEARERS.set(db, hearers);
  pool.on('connect', (client) => {
    client.on('notification', (message) => {
      if (message.channel !== CHANGES_CHANNEL) return;
      for (const hear of hearers) hear(message.payload ?? '');
    });
    // A failed LISTEN fails the connection's next statement too, which reports it.
    client.query(`LISTEN ${CHANGES_CHANNEL}`).catch(() => undefined);
  });
}

/** `hear` is called with each changes-channel payload a pooled connection hears; the answer stops it. PostgreSQL only. */
export function hearPoolChanges(db: Db, hear: (payload: string) => void): () => void {
  const hearers = POOL_HEARERS.get(db);
  hearers?.add(hear);
  return () => void hearers?.delete(hear);
}

/**
 * Connections per server instance (issue 14, measured with `BENCH_POOL_SIZES=2,5,10,20 npm run
 * bench api`, docs/benchmarks.md): 2 answered 10–20 % fewer dashboard requests than 5–20, which
 * were level within the noise at 10 and 50 clients on a 2-core machine where the server,
 * PostgreSQL and the load share the cores. Kept at 10: more backends than the database host has
 * cores add memory and contention, not throughput, and 10 per instance leaves PostgreSQL's
 * default 100 connections room for several instances and the tools.
 */
const POOL_SIZE = 10;

/**
 * How long a statement waits for a connection: a new one to a server that does not answer (a
 * network cut drops packets instead of refusing, and the kernel gives up only after minutes), or a
 * free one of the pool's. Past it the request answers 503 with Retry-After (server/db/errors.ts)
 * instead of hanging until the client gives up.
 */
const CONNECT_TIMEOUT_MS = 10_000;

interface DatabaseOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** Embedded PGlite in memory (tests). */
  inMemory?: boolean;
  /**
   * In memory, start from this machine's database image (every migration applied, no rows)
   * instead of an empty database: a test's database in ≈ 0.5 s instead of initdb's 2–3 s and the
   * migrations. Made, the usual way, when there is none yet.
   */
  migrated?: boolean;
  /** Embedded PGlite on a thread of its own (`npm start`; server/db/pglite-thread.ts). */
  thread?: boolean;
}

/** Sort keys first, on the repositories' camelCase names; then camelCase ↔ snake_case. */
const dbPlugins = () => [new SortKeysPlugin(), new CamelCasePlugin()];

/** Opens the PostgreSQL server at `databaseUrl`, or embedded PGlite under `dataDir/db` (or in memory, for tests). */
export async function connectDatabase(options: DatabaseOptions): Promise<Db> {
  if (options.thread && !options.databaseUrl) {
    const { db, opened } = await openDatabase(options);
    await opened.catch(async (error: unknown) => {
      await db.destroy().catch(() => undefined);
      throw error;
    });
    return db;
  }
  if (options.databaseUrl) {
    const pg = await import('pg');
    const types = pg.default.types;
    const pool = new pg.default.Pool({
      connectionString: options.databaseUrl,
      max: POOL_SIZE,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
          if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
          if (oid === DATE) return (v: string) => v;
          return types.getTypeParser(oid, format);
        }) as typeof types.getTypeParser,
      },
    });
    // An idle connection the server closes (restart, failover) must not crash the process;
    // the pool replaces it on the next query.
    pool.on('error', (error) => console.warn('PostgreSQL connection lost:', error.message));
    // A client the pool has lent out (a statement or a transaction in progress) has no listener of
    // the pool's: a server that goes away then would end the process on an unhandled 'error'
    // event. The statement fails on its own (answered 503, server/db/errors.ts); this listener
    // only keeps the event from being unhandled.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: dbPlugins() });
    POOLS.set(db, pool);
    hearChangesOnEveryConnection(db, pool);
    return db;
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const dir = join(options.dataDir, 'db');
  // A new database starts from this machine's database image (server/db/image.ts) instead of
  // PGlite's initdb (2–3 s); without an image it is made as before and its dump becomes one.
  let image: string | null;
  let imageToMake: string | null;
  let loadDataDir: Blob | undefined;
  if (options.inMemory) {
    image = options.migrated ? await currentImageFile() : null;
    loadDataDir = (image && imageTarball(image)) || undefined;
    imageToMake = image && !loadDataDir ? image : null;
  } else {
    image = await imageForNewDirectory(dir);
    imageToMake = image && !startFromImage(image, dir) ? image : null;
  }
  if (image && !imageToMake) startupMark('image');
  const pglite = await PGlite.create(options.inMemory ? 'memory://' : dir, { parsers: PGLITE_PARSERS, loadDataDir });
  startupMark('database');
  const db = databaseOnPglite(pglite, pglite);
  if (imageToMake) await makeImage(db, pglite, imageToMake);
  return db;
}

/**
 * A `Db` on an embedded database already open in this thread. `embedded` is what `embeddedPglite`
 * answers for it: the instance itself, or a handle a caller lends out in its place (the tests'
 * pool of open databases, tests/server/pglite-pool.ts).
 */
export function databaseOnPglite(pglite: KyselyPglite, embedded: EmbeddedPglite): Db {
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }), plugins: dbPlugins() });
  EMBEDDED.set(db, embedded);
  return db;
}

/**
 * `connectDatabase`, answered at once (issue 14): a `Db` whose statements wait for the database
 * to open, and `opened`, which settles when it has (the image of a new machine made too). With
 * `thread`, embedded PGlite opens on its own thread meanwhile, so the server's modules load and
 * its app is built beside PostgreSQL's start instead of after it.
 */
export async function openDatabase(options: DatabaseOptions & { pglite?: PgliteThread }): Promise<{ db: Db; opened: Promise<void> }> {
  if (options.databaseUrl || !options.thread) {
    const db = await connectDatabase(options);
    return { db, opened: Promise.resolve() };
  }
  const pglite = options.pglite ?? (await (await import('./pglite-bridge.ts')).startPgliteThread(options));
  const { PgliteThreadDialect } = await import('./pglite-thread-dialect.ts');
  const db = new Kysely<Database>({ dialect: new PgliteThreadDialect(pglite), plugins: dbPlugins() });
  EMBEDDED.set(db, pglite);
  const opened = pglite.waitReady.then(async () => {
    startupMark('database');
    if (pglite.madeFresh && pglite.image) await makeImage(db, pglite, pglite.image);
  });
  opened.catch(() => undefined); // the caller awaits it; not an unhandled rejection meanwhile
  return { db, opened };
}

/**
 * A database just made by initdb, migrated and dumped before anything else writes to it: the
 * image the next new data directory starts from.
 */
async function makeImage(db: Db, pglite: EmbeddedPglite, file: string): Promise<void> {
  const { migrateToLatest } = await import('../migrations/index.ts');
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const dump = await pglite.dumpDataDir('none');
  saveImage(file, new Uint8Array(await dump.arrayBuffer()));
}
