import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { connectDatabase, type Db } from '../db/connect.ts';
import { migrateToLatest } from '../migrations/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The database (Kysely): PostgreSQL with DATABASE_URL, else embedded PGlite. */
    db: Db;
  }
}

export interface DbPluginOptions {
  config: Pick<Config, 'databaseUrl' | 'dataDir'>;
  /**
   * A database the caller opened and keeps (tests, benchmarks): used as it is, neither migrated
   * nor closed here. Without it the plugin opens the configured one, migrates it to the latest
   * schema and closes it last when the server closes.
   */
  db?: Db;
}

/** Decorates `app.db`; registered first, since every other part reads or writes it. */
export const dbPlugin = fp(
  async function dbPlugin(app: FastifyInstance, options: DbPluginOptions) {
    if (options.db) {
      app.decorate('db', options.db);
      return;
    }
    const db = await connectDatabase(options.config);
    try {
      await migrateToLatest(db);
    } catch (error) {
      await db.destroy();
      throw error;
    }
    app.decorate('db', db);
    // onClose hooks run in reverse order of registration: the database, registered first, closes last.
    app.addHook('onClose', async () => db.destroy());
  },
  { name: 'cutdesk-db' },
);
