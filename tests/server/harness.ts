import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../server/app.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import { connectDatabase, type Db } from '../../server/db/connect.ts';
import { migrationsHash } from '../../server/db/image.ts';
import { MIGRATIONS, migrateToLatest } from '../../server/migrations/index.ts';
import { seedDemo } from '../../server/seed/demo.ts';
import { connectStorage } from '../../server/storage/setup.ts';
import { pooledDatabase } from './pglite-pool.ts';

/** PGlite always; the PostgreSQL server too when TEST_DATABASE_URL is set (CI sets it). */
export const DATABASES: { name: string; url: string | null }[] = [
  { name: 'PGlite', url: null },
  ...(process.env.TEST_DATABASE_URL ? [{ name: 'PostgreSQL', url: process.env.TEST_DATABASE_URL }] : []),
];

export const DEMO_PASSWORD = 'demo-password';

export interface TestServer {
  app: FastifyInstance;
  db: Db;
  config: Config;
  dataDir: string;
  /** `http://127.0.0.1:<port>` when started with `storage: true` (the server listens), else null. */
  baseUrl: string | null;
  close(): Promise<void>;
}

/**
 * A throwaway database on the server at `url`, dropped by the returned function: empty, or with
 * every migration applied when `migrated` (a copy of the migrated template, made once per set of
 * migrations: ≈ 0.15 s instead of ≈ 0.5 s of migrations).
 */
export async function throwawayDatabase(url: string, options: { migrated?: boolean } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `cutdesk_test_${randomBytes(6).toString('hex')}`;
  const admin = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }) });
  const template = options.migrated ? await migratedTemplate(admin, url) : null;
  await sql`create database ${sql.id(name)} ${template ? sql`template ${sql.id(template)}` : sql``}`.execute(admin);
  return {
    url: withDatabase(url, name),
    drop: async () => {
      await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin);
      await admin.destroy();
    },
  };
}

function withDatabase(url: string, name: string): string {
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}

/**
 * The template database with the current migrations on the server at `url`, named after them
 * (server/db/image.ts): made once, by the first test file that needs it while the others wait
 * on an advisory lock; templates of other migrations are dropped then. Nobody connects to it
 * afterwards, as `create database … template` requires.
 */
async function migratedTemplate(admin: Kysely<unknown>, url: string): Promise<string> {
  const name = `cutdesk_template_${migrationsHash(MIGRATIONS)}`;
  return admin.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(hashtext('cutdesk.test-template'))`.execute(connection);
    try {
      const { rows } = await sql<{ datname: string }>`select datname from pg_database where datname like 'cutdesk\_template\_%'`.execute(connection);
      if (rows.some((row) => row.datname === name)) return name;
      for (const { datname } of rows) await sql`drop database ${sql.id(datname)} with (force)`.execute(connection);
      const draft = `${name}_draft`;
      await sql`create database ${sql.id(draft)}`.execute(connection);
      const db = await connectDatabase({ databaseUrl: withDatabase(url, draft), dataDir: '' });
      try {
        await migrateToLatest(db);
      } finally {
        await db.destroy();
      }
      await sql`alter database ${sql.id(draft)} rename to ${sql.id(name)}`.execute(connection);
      return name;
    } finally {
      await sql`select pg_advisory_unlock(hashtext('cutdesk.test-template'))`.execute(connection);
    }
  });
}

/** A real server (no listen) on a fresh database, with the demo data seeded unless `seed` is false. */
export async function startTestServer(
  databaseUrl: string | null,
  options: { seed?: boolean; env?: Record<string, string>; storage?: boolean } = {},
): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cutdesk-test-'));
  const throwaway = databaseUrl ? await throwawayDatabase(databaseUrl, { migrated: true }) : null;
  const config = loadConfig({
    DATA_DIR: dataDir,
    SEED: 'none',
    LOG_LEVEL: 'silent',
    WEB_DIR: join(dataDir, 'no-web'),
    RATE_LIMIT_PER_EMAIL: '1000',
    RATE_LIMIT_PER_IP: '10000',
    // Load shedding answers 503 when this process's event loop lags; on a busy CI machine a test's
    // own work (PGlite runs in this loop) can pass the production threshold. Tests of shedding set
    // their own (tests/security/shutdown.test.ts).
    MAX_EVENT_LOOP_DELAY_MS: '60000',
    ...(throwaway ? { DATABASE_URL: throwaway.url } : {}),
    ...options.env,
  });
  // TEST_PGLITE_THREAD=1: embedded PGlite on its own thread, as `npm start` runs it (server/db/pglite-thread.ts).
  const thread = process.env.TEST_PGLITE_THREAD === '1';
  // PGlite in this thread: one of the worker's open databases, put back as the image left it (tests/server/pglite-pool.ts).
  const pooled = config.databaseUrl || thread ? null : await pooledDatabase();
  const db = pooled?.db ?? (await connectDatabase({ databaseUrl: config.databaseUrl, dataDir, inMemory: !throwaway, migrated: true, thread }));
  await migrateToLatest(db);
  if (options.seed !== false) await seedDemo(db, DEMO_PASSWORD);
  const app = await buildApp({ config, db });
  let baseUrl: string | null = null;
  if (options.storage) {
    // The embedded object store is reached over HTTP, so this server listens (loopback, free port).
    await app.listen({ host: '127.0.0.1', port: 0 });
    await connectStorage(app);
    const address = app.server.address();
    baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }
  return {
    app,
    db,
    config,
    dataDir,
    baseUrl,
    async close() {
      await app.close();
      await db.destroy();
      await pooled?.release();
      await throwaway?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in through the API and returns the bearer header. */
export async function signIn(app: FastifyInstance, email: string, password = DEMO_PASSWORD): Promise<{ authorization: string }> {
  const response = await app.inject({ method: 'POST', url: '/api/v1/login', payload: { email, password } });
  if (response.statusCode !== 200) throw new Error(`login of ${email} failed: ${response.statusCode} ${response.body}`);
  return { authorization: `Bearer ${response.json<{ token: string }>().token}` };
}
