import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { Config } from '../../config.ts';
import { connectDatabase, embeddedPglite, type Db } from '../../db/connect.ts';
import { lockDataDir } from '../../data-dir-lock.ts';
import { closeEmbeddedDatabase } from '../embedded-db.ts';
import { migrateToLatest } from '../../migrations/index.ts';
import { redactedUrl, writeMovedMarker } from './marker.ts';
import type { BucketAccess } from './object-copy.ts';
import { moveObjects, type ObjectsReport } from './object-move.ts';
import { progressBar } from './progress-bar.ts';
import { continueSequences, copyTable, countRows, ident, MOVE_TABLE, MOVE_TABLES_DDL, sequenceStates, tablesInOrder, type SqlRunner } from './sql-copy.ts';
import { inspectTarget, MoveRefusedError } from './target-check.ts';
import { MoveInterruptedError } from './interrupted.ts';

export { MoveRefusedError } from './target-check.ts';
export { MoveInterruptedError } from './interrupted.ts';

/**
 * `npm run move-data` (issue 15): everything an embedded installation holds, into an empty
 * PostgreSQL database and, when named, another S3 bucket. The data directory is locked for the
 * whole move (no server can run on it meanwhile). The target records which installation is
 * being moved into it and how far each table got (`cutdesk_move`, `cutdesk_move_tables`), so a
 * move that was interrupted runs again and finishes without duplicating anything, while a
 * target holding anything else is refused.
 */

export interface MoveOptions {
  config: Config;
  toDatabase: string;
  toS3: BucketAccess | null;
  /** A line of progress (rows and bytes). */
  progress: (line: string) => void;
  /** A test's interruption: throws after this many rows were copied. */
  stopAfterRows?: number;
  /** Rows per page (tests use small pages to be interrupted mid-table). */
  batchRows?: number;
  /**
   * Ctrl-C or SIGTERM (issue 32): the move stops after the page of rows in flight, or with the
   * object in flight (its multipart upload aborted), and throws MoveInterruptedError.
   */
  signal?: AbortSignal;
}

export interface MoveReport {
  tables: { name: string; source: number; target: number }[];
  /** Each sequence's next value (ids, invoice numbers): the target's must not be behind. */
  sequences: { name: string; source: number; target: number }[];
  objects: ObjectsReport | null;
  ok: boolean;
}

export async function moveData(options: MoveOptions): Promise<MoveReport> {
  const { config, progress, signal } = options;
  const stopHere = (where: string) => {
    if (signal?.aborted) throw new MoveInterruptedError(where);
  };
  if (config.databaseUrl) throw new MoveRefusedError('This installation already uses PostgreSQL (DATABASE_URL is set): there is no embedded database to move.');
  if (options.toS3 && config.storage.mode !== 'embedded')
    throw new MoveRefusedError("This installation already keeps its objects in S3 (S3_ENDPOINT is set): copy that bucket with the S3 service's own tools.");
  if (!existsSync(join(config.dataDir, 'db'))) throw new MoveRefusedError(`There is no embedded database in ${config.dataDir}: nothing to move.`);
  const lock = lockDataDir(config.dataDir);
  const pool = new pg.Pool({ connectionString: options.toDatabase, max: 2 });
  pool.on('error', () => undefined); // a dropped idle connection: the next query fails with the reason
  const target: SqlRunner = { query: async (text, params) => (await pool.query(text, params)).rows as never };
  let sourceDb: Db | null = null;
  try {
    sourceDb = await connectDatabase({ databaseUrl: null, dataDir: config.dataDir });
    const pglite = embeddedPglite(sourceDb)!;
    const source: SqlRunner = { query: async (text, params) => (await pglite.query(text, params)).rows as never };
    // The embedded database's own identity (set when it was created): the same installation whatever its path.
    const [{ id: installation }] = (await source.query<{ id: string }>('select system_identifier::text as id from pg_control_system()')) as [{ id: string }];
    const state = await inspectTarget(target, installation);
    stopHere('checking the target database, before writing to it');

    // The schema by the same migrations the server runs (they do nothing on a resumed target).
    const targetDb = await connectDatabase({ databaseUrl: options.toDatabase, dataDir: config.dataDir });
    try {
      await migrateToLatest(targetDb);
    } finally {
      await targetDb.destroy();
    }
    const tables = await tablesInOrder(source);
    stopHere('preparing the target database (its tables are made, no row was copied)');
    if (state === 'resume') progress('Resuming the move into this database: rows already there are kept, the rest copied.');
    else
      await startMove(
        pool,
        tables.map((t) => t.name),
        installation,
        config.dataDir,
      );

    const totals = new Map<string, number>();
    for (const table of tables) totals.set(table.name, await countRows(source, table.name));
    const allRows = [...totals.values()].reduce((a, b) => a + b, 0);
    let copied = 0;
    for (const table of tables) copied += await countRows(target, table.name);
    for (const table of tables) {
      await copyTable(
        source,
        target,
        table,
        (rows) => {
          copied += rows;
          progress(`rows ${progressBar(copied, allRows)} ${copied}/${allRows} ${table.name}`);
          if (options.stopAfterRows !== undefined && copied >= options.stopAfterRows) throw new Error('interrupted (test)');
          stopHere(`copying the rows: ${copied} of ${allRows} are in the target (table ${table.name}), each page whole`);
        },
        options.batchRows,
      );
    }
    await continueSequences(source, target);
    stopHere(`copying the rows: all ${allRows} rows are in the target, before the objects`);

    const report: MoveReport = { tables: [], sequences: [], objects: null, ok: true };
    for (const table of tables) report.tables.push({ name: table.name, source: totals.get(table.name)!, target: await countRows(target, table.name) });
    const targetSequences = new Map((await sequenceStates(target)).map((s) => [s.name, s.next]));
    for (const { name, next } of await sequenceStates(source)) report.sequences.push({ name, source: next, target: targetSequences.get(name) ?? 0 });
    if (options.toS3) report.objects = await moveObjects(config, options.toS3, progress, signal);
    report.ok =
      report.tables.every((t) => t.source === t.target) &&
      report.sequences.every((s) => s.target >= s.source) &&
      (report.objects?.mismatches.length ?? 0) === 0 &&
      (report.objects?.verified.count ?? 0) === (report.objects?.source.count ?? 0);

    if (report.ok) {
      await target.query(`update ${MOVE_TABLE} set finished_at = now() where installation = $1`, [installation]);
      writeMovedMarker(config.dataDir, {
        movedAt: new Date().toISOString(),
        database: redactedUrl(options.toDatabase),
        objects: options.toS3 ? `${options.toS3.endpoint ?? 'AWS S3'}/${options.toS3.bucket}` : null,
      });
    }
    return report;
  } finally {
    await pool.end();
    if (sourceDb) await closeEmbeddedDatabase(sourceDb);
    lock.release();
  }
}

/**
 * A new move: what the migrations inserted (the plans) goes, as the source's rows replace it,
 * and the target records whose move it holds. One transaction: a move interrupted here left
 * the target as empty as it found it.
 */
async function startMove(pool: pg.Pool, tables: string[], installation: string, dataDir: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(`truncate table ${tables.map(ident).join(', ')} cascade`);
    await client.query(
      `create table ${MOVE_TABLE} (installation text primary key, data_dir text not null, started_at timestamptz not null default now(), finished_at timestamptz)`,
    );
    await client.query(MOVE_TABLES_DDL);
    await client.query(`insert into ${MOVE_TABLE} (installation, data_dir) values ($1, $2)`, [installation, dataDir]);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}
