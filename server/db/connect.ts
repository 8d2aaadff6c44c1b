import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { CamelCasePlugin, Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

/** The embedded database behind each PGlite `Db`, for what Kysely cannot do (LISTEN: server/events/). */
const EMBEDDED = new WeakMap<Db, PGlite>();

/** The PGlite instance `db` runs on, or undefined for PostgreSQL (or a `Db` opened elsewhere). */
export function embeddedPglite(db: Db): PGlite | undefined {
  return EMBEDDED.get(db);
}

/** The connection pool behind a PostgreSQL `Db` (its use is reported on /metrics), or undefined for PGlite. */
const POOLS = new WeakMap<Db, import('pg').Pool>();
export function postgresPool(db: Db): import('pg').Pool | undefined {
  return POOLS.get(db);
}

// int8 and numeric carry byte counts and quotas: far below 2^53, so plain numbers are safe.
// `date` columns stay 'YYYY-MM-DD' text so no time zone can shift them.
const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;

/** Opens the PostgreSQL server at `databaseUrl`, or embedded PGlite under `dataDir/db` (or in memory, for tests). */
export async function connectDatabase(options: { databaseUrl: string | null; dataDir: string; inMemory?: boolean }): Promise<Db> {
  const plugins = [new CamelCasePlugin()];
  if (options.databaseUrl) {
    const pg = await import('pg');
    const types = pg.default.types;
    const pool = new pg.default.Pool({
      connectionString: options.databaseUrl,
      max: 10,
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
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins });
    POOLS.set(db, pool);
    return db;
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = await PGlite.create(options.inMemory ? 'memory://' : join(options.dataDir, 'db'), {
    parsers: { [INT8]: Number, [NUMERIC]: Number, [DATE]: (v: string) => v },
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }), plugins });
  EMBEDDED.set(db, pglite);
  return db;
}
