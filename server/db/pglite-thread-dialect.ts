/**
 * Kysely's dialect for embedded PGlite on its own thread (server/db/pglite-bridge.ts). Kysely's
 * own PGlite dialect says the database has one connection, so Kysely queues every statement
 * behind a lock in this thread: the database's thread would then only ever see one at a time,
 * and the bounded queue in front of it (MAX_WAITING) would never fill. Here each caller gets a
 * connection of its own, the statements go to the thread as they come, and PGlite's own lock
 * there keeps a transaction's statements together (a statement from outside waits for it).
 */
import {
  AbortedTransactionError,
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import type { PgliteThread, PgliteTransaction } from './pglite-bridge.ts';

class ThreadConnection implements DatabaseConnection {
  transaction: PgliteTransaction | null = null;
  readonly #pglite: PgliteThread;
  constructor(pglite: PgliteThread) {
    this.#pglite = pglite;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const parameters = compiled.parameters as unknown[];
    const { rows, affectedRows } = this.transaction
      ? await this.transaction.query<R>(compiled.sql, parameters)
      : await this.#pglite.query<R>(compiled.sql, parameters);
    return { rows, numAffectedRows: affectedRows === undefined || affectedRows === null ? undefined : BigInt(affectedRows) };
  }

  // eslint-disable-next-line require-yield -- an async generator that only refuses
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported by PGlite.');
  }
}

/** A savepoint's name as an identifier (Kysely passes the caller's name as it is). */
const identifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

class ThreadDriver implements Driver {
  readonly #pglite: PgliteThread;
  constructor(pglite: PgliteThread) {
    this.#pglite = pglite;
  }

  async init(): Promise<void> {
    await this.#pglite.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new ThreadConnection(this.#pglite);
  }

  async beginTransaction(connection: ThreadConnection): Promise<void> {
    connection.transaction = await this.#pglite.begin();
  }

  async commitTransaction(connection: ThreadConnection): Promise<void> {
    const transaction = connection.transaction;
    connection.transaction = null;
    try {
      await transaction?.commit();
    } catch (error) {
      // What Kysely's own PGlite dialect answers for a commit of a transaction a failed statement ended.
      if ((error as { code?: unknown }).code === '25P02') throw new AbortedTransactionError({ cause: error });
      throw error;
    }
  }

  async rollbackTransaction(connection: ThreadConnection): Promise<void> {
    const transaction = connection.transaction;
    connection.transaction = null;
    await transaction?.rollback();
  }

  async savepoint(connection: ThreadConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${identifier(name)}`));
  }

  async rollbackToSavepoint(connection: ThreadConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${identifier(name)}`));
  }

  async releaseSavepoint(connection: ThreadConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${identifier(name)}`));
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    await this.#pglite.close();
  }
}

export class PgliteThreadDialect implements Dialect {
  readonly #pglite: PgliteThread;
  constructor(pglite: PgliteThread) {
    this.#pglite = pglite;
  }
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new ThreadDriver(this.#pglite);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}
