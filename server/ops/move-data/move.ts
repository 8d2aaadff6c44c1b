import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import pg from 'pg';
import type { Config } from '../../config.ts';
import { connectDatabase, embeddedPglite } from '../../db/connect.ts';
import { lockDataDir } from '../../data-dir-lock.ts';
import { migrateToLatest } from '../../migrations/index.ts';
import { embeddedS3Plugin } from '../../storage/embedded-s3/index.ts';
import { clientOf, copyObject, listObjects, type BucketAccess } from './object-copy.ts';
import { redactedUrl, writeMovedMarker } from './marker.ts';
import { copyTable, countRows, resetSequences, tablesInOrder, type SqlRunner } from './sql-copy.ts';

/**
 * `npm run move-data` (issue 15): everything an embedded installation holds, into an empty
 * PostgreSQL database and, when named, another S3 bucket. The data directory is locked for the
 * whole move (no server can run on it meanwhile). The target remembers which installation is
 * being moved into it (`cutdesk_move`), so a move that was interrupted runs again and finishes
 * without duplicating anything, while a target holding anything else is refused.
 */

export interface MoveOptions {
  config: Config;
  toDatabase: string;
  toS3: BucketAccess | null;
  /** A line of progress (rows and bytes). */
  progress: (line: string) => void;
  /** A test's interruption: throws after this many rows were copied. */
  stopAfterRows?: number;
}

export interface MoveReport {
  tables: { name: string; source: number; target: number }[];
  objects: { count: number; bytes: number; skipped: number; mismatches: string[] } | null;
  ok: boolean;
}

export class MoveRefusedError extends Error {}

const MOVE_TABLE = 'cutdesk_move';

/** An installation's identity: its secret's hash (the same data directory, whatever its path). */
function installationId(dataDir: string): string {
  return createHash('sha256').update(readFileSync(join(dataDir, 'jwt-secret'))).digest('hex').slice(0, 32);
}

function bar(done: number, total: number): string {
  const width = 24;
  const filled = total ? Math.round((done / total) * width) : width;
  return `[${'#'.repeat(filled)}${' '.repeat(width - filled)}]`;
}

export async function moveData(options: MoveOptions): Promise<MoveReport> {
  const { config, progress } = options;
  if (config.databaseUrl) throw new MoveRefusedError('This installation already uses PostgreSQL (DATABASE_URL): there is nothing embedded to move.');
  const lock = lockDataDir(config.dataDir);
  const sourceDb = await connectDatabase({ databaseUrl: null, dataDir: config.dataDir });
  const pglite = embeddedPglite(sourceDb)!;
  const source: SqlRunner = { query: async (text, params) => (await pglite.query(text, params)).rows as never };
  const pool = new pg.Pool({ connectionString: options.toDatabase, max: 2 });
  const target: SqlRunner = { query: async (text, params) => (await pool.query(text, params)).rows as never };
  try {
    const me = installationId(config.dataDir);
    // An empty database (no table at all), or one this installation's move was interrupted in.
    const existing = (await target.query<{ name: string }>(`select table_name as name from information_schema.tables where table_schema = 'public'`)).map((row) => row.name);
    const resuming = existing.includes(MOVE_TABLE) && (await target.query<{ installation: string }>(`select installation from ${MOVE_TABLE}`)).every((row) => row.installation === me);
    if (existing.length > 0 && !resuming) {
      throw new MoveRefusedError(`The target database is not empty (it has ${existing.length} tables, and no unfinished move of this installation). Move into a new, empty database.`);
    }
    // The schema by the same migrations the server runs.
    const targetDb = await connectDatabase({ databaseUrl: options.toDatabase, dataDir: config.dataDir });
    try {
      await migrateToLatest(targetDb);
    } finally {
      await targetDb.destroy();
    }
    const tables = await tablesInOrder(source);
    if (resuming) progress('Resuming the move into this database: rows already there are kept, the rest copied.');
    else {
      // What the migrations themselves inserted (plans, coupons) comes from the source as it is now.
      await target.query(`truncate table ${tables.map((t) => `"${t.name}"`).join(', ')} cascade`);
      await target.query(`create table ${MOVE_TABLE} (installation text primary key, started_at timestamptz not null default now(), finished_at timestamptz)`);
      await target.query(`insert into ${MOVE_TABLE} (installation) values ($1)`, [me]);
    }

    const totals = new Map<string, number>();
    for (const table of tables) totals.set(table.name, await countRows(source, table.name));
    const allRows = [...totals.values()].reduce((a, b) => a + b, 0);
    let copied = 0;
    for (const table of tables) {
      await copyTable(source, target, table, (rows) => {
        copied += rows;
        progress(`rows ${bar(copied, allRows)} ${copied}/${allRows} ${table.name}`);
        if (options.stopAfterRows !== undefined && copied >= options.stopAfterRows) throw new Error('interrupted (test)');
      });
    }
    await resetSequences(target);
    const report: MoveReport = { tables: [], objects: null, ok: true };
    for (const table of tables) {
      const row = { name: table.name, source: totals.get(table.name)!, target: await countRows(target, table.name) };
      report.tables.push(row);
      if (row.source !== row.target) report.ok = false;
    }
    if (options.toS3) {
      report.objects = await moveObjects(config, options.toS3, progress);
      if (report.objects.mismatches.length) report.ok = false;
    }
    if (report.ok) {
      await target.query(`update ${MOVE_TABLE} set finished_at = now() where installation = $1`, [me]);
      writeMovedMarker(config.dataDir, {
        movedAt: new Date().toISOString(),
        database: redactedUrl(options.toDatabase),
        objects: options.toS3 ? `${options.toS3.endpoint ?? 'AWS S3'}/${options.toS3.bucket}` : null,
      });
    }
    return report;
  } finally {
    await pool.end();
    await sourceDb.destroy();
    lock.release();
  }
}

/** Serves the embedded store on loopback for the move (the server is not running) and copies every object. */
async function moveObjects(config: Config, to: BucketAccess, progress: (line: string) => void): Promise<NonNullable<MoveReport['objects']>> {
  const { storage } = config;
  const app = Fastify();
  await app.register(embeddedS3Plugin, {
    prefix: '/s3',
    root: join(config.dataDir, 's3'),
    bucket: storage.bucket,
    region: storage.region,
    credentials: { lookup: async (id: string) => (id === storage.accessKeyId ? { secretAccessKey: storage.secretAccessKey } : null) },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const endpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/s3`;
  const source = { client: clientOf({ endpoint, region: storage.region, bucket: storage.bucket, accessKeyId: storage.accessKeyId, secretAccessKey: storage.secretAccessKey, forcePathStyle: true }), bucket: storage.bucket };
  const target = { client: clientOf(to), bucket: to.bucket };
  try {
    const objects = [];
    for await (const object of listObjects(source.client, source.bucket)) objects.push(object);
    const total = objects.reduce((sum, o) => sum + o.size, 0);
    const result = { count: 0, bytes: 0, skipped: 0, mismatches: [] as string[] };
    let sent = 0;
    for (const object of objects) {
      const outcome = await copyObject(source, target, object, (bytes) => {
        sent += bytes;
        progress(`bytes ${bar(sent, total)} ${(sent / 1048576).toFixed(1)}/${(total / 1048576).toFixed(1)} MiB ${object.key}`);
      });
      if (outcome === 'mismatch') result.mismatches.push(object.key);
      else {
        result.count += 1;
        result.bytes += object.size;
        if (outcome === 'skipped') result.skipped += 1;
      }
    }
    return result;
  } finally {
    source.client.destroy();
    target.client.destroy();
    await app.close();
  }
}
