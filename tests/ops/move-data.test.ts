import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import { connectDatabase } from '../../server/db/connect.ts';
import { migrateToLatest } from '../../server/migrations/index.ts';
import { movedStartRefusal, readMovedMarker } from '../../server/ops/move-data/marker.ts';
import { MoveRefusedError, moveData } from '../../server/ops/move-data/move.ts';
import { clientOf } from '../../server/ops/move-data/object-copy.ts';
import { seedDemo } from '../../server/seed/demo.ts';
import { connectStorage } from '../../server/storage/setup.ts';
import { DEMO_PASSWORD, startTestServer, throwawayDatabase, type TestServer } from '../server/harness.ts';

const SERVER_URL = process.env.TEST_DATABASE_URL ?? null;

/** Every table's rows as PostgreSQL renders them (UTC), each table by its first column. */
async function everyRow(query: (text: string) => Promise<Record<string, unknown>[]>): Promise<Record<string, string[]>> {
  await query(`set timezone = 'UTC'`);
  const tables = (await query(`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'kysely%' and table_name <> 'cutdesk_move' order by 1`)).map((r) => String(r.name));
  const out: Record<string, string[]> = {};
  for (const table of tables) out[table] = (await query(`select row_to_json(t)::text as j from "${table}" t order by 1`)).map((r) => String(r.j));
  return out;
}

/**
 * Issue 15, moving up: `npm run move-data` copies an embedded installation (PGlite and the
 * embedded store) into an empty PostgreSQL database and another S3 bucket, keeping ids and every
 * value exactly, resumes after an interruption without duplicating anything, refuses a target
 * that holds something else, and marks the old directory so no server starts on it by mistake.
 */
describe.skipIf(!SERVER_URL)('npm run move-data (PostgreSQL)', () => {
  let dataDir: string;
  let config: Config;
  let target: { url: string; drop: () => Promise<void> };
  let store: TestServer;
  const objects = new Map<string, string>();

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cutdesk-move-'));
    config = loadConfig({ DATA_DIR: dataDir, SEED: 'none', LOG_LEVEL: 'silent', WEB_DIR: join(dataDir, 'no-web') });
    // The embedded installation: migrated, seeded, a few objects in its store, a comment with a drawing.
    const db = await connectDatabase({ databaseUrl: null, dataDir });
    await migrateToLatest(db);
    await seedDemo(db, DEMO_PASSWORD);
    const app = await buildApp({ config, db });
    await app.listen({ host: '127.0.0.1', port: 0 });
    await connectStorage(app);
    for (const [key, body] of [
      ['projects/1/raw/assets/logo.png', Buffer.from('a logo')],
      ['projects/1/raw/b_roll/clip one.mp4', Buffer.alloc(5 * 1024 * 1024 + 3, 9)],
      ['projects/1/final/café ☕.mp4', Buffer.from('a final cut')],
    ] as const) {
      await app.ctx.storage.putObject(key, body, 'application/octet-stream');
      objects.set(key, createHash('sha256').update(body).digest('hex'));
    }
    await app.close();
    await db.destroy();
    target = await throwawayDatabase(SERVER_URL!);
    // The target bucket: another embedded store, reached over the S3 API like any S3 service.
    store = await startTestServer(null, { storage: true, seed: false });
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    await target?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const toS3 = () => ({ endpoint: `${store.baseUrl}/s3`, bucket: store.config.storage.bucket, region: store.config.storage.region, accessKeyId: store.config.storage.accessKeyId, secretAccessKey: store.config.storage.secretAccessKey, forcePathStyle: true });

  it('refuses a target that holds something else', async () => {
    const other = await throwawayDatabase(SERVER_URL!);
    try {
      const client = new pg.Client({ connectionString: other.url });
      await client.connect();
      await client.query('create table organizations (id serial primary key, name text)');
      await client.query(`insert into organizations (name) values ('Someone else')`);
      await client.end();
      await expect(moveData({ config, toDatabase: other.url, toS3: null, progress: () => undefined })).rejects.toBeInstanceOf(MoveRefusedError);
    } finally {
      await other.drop();
    }
  });

  it('moves every row and object exactly, after an interruption, and marks the old directory', async () => {
    const lines: string[] = [];
    await expect(moveData({ config, toDatabase: target.url, toS3: toS3(), progress: (line) => lines.push(line), stopAfterRows: 5 })).rejects.toThrow('interrupted');
    // The old directory is not marked until the move verified; its lock is free again.
    expect(readMovedMarker(dataDir)).toBeNull();
    const report = await moveData({ config, toDatabase: target.url, toS3: toS3(), progress: (line) => lines.push(line) });
    expect(report.ok, JSON.stringify(report)).toBe(true);
    expect(lines.some((line) => /^rows \[#+ *\] \d+\/\d+ /.test(line))).toBe(true);
    expect(lines.some((line) => line.startsWith('bytes ['))).toBe(true);
    expect(report.objects).toMatchObject({ count: objects.size, mismatches: [] });
    for (const table of report.tables) expect(table.target, table.name).toBe(table.source);

    // Every value, as PostgreSQL renders it.
    const source = await PGlite.create(join(dataDir, 'db'));
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      const before = await everyRow(async (text) => (await source.query<Record<string, unknown>>(text)).rows);
      const after = await everyRow(async (text) => (await client.query<Record<string, unknown>>(text)).rows);
      expect(after).toEqual(before);
      // Sequences continue after the copied ids.
      const { rows } = await client.query<{ id: number; max: number }>(`insert into organizations (name) values ('New after the move') returning id, (select max(id) from organizations where name <> 'New after the move') as max`);
      expect(rows[0]!.id).toBeGreaterThan(rows[0]!.max);
      await client.query(`delete from organizations where name = 'New after the move'`);
    } finally {
      await client.end();
      await source.close();
    }

    // Every object, byte for byte, in the other bucket.
    const s3 = clientOf(toS3());
    for (const [key, sha] of objects) {
      const object = await s3.send(new GetObjectCommand({ Bucket: toS3().bucket, Key: key }));
      const hash = createHash('sha256');
      for await (const chunk of object.Body as Readable) hash.update(chunk as Buffer);
      expect(hash.digest('hex'), key).toBe(sha);
    }
    s3.destroy();

    // The old directory refuses to start on what was moved.
    expect(readMovedMarker(dataDir)).toMatchObject({ objects: expect.stringContaining(toS3().bucket) as unknown });
    expect(readMovedMarker(dataDir)!.database).not.toContain('password');
    expect(movedStartRefusal(dataDir, { embeddedDatabase: true, embeddedStore: true })).toMatch(/was moved.*--force/);
    expect(movedStartRefusal(dataDir, { embeddedDatabase: false, embeddedStore: true })).toMatch(/objects were moved/);
    expect(movedStartRefusal(dataDir, { embeddedDatabase: false, embeddedStore: false })).toBeNull();

    // And the server itself says so and stops, unless forced.
    const refused = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, [join(process.cwd(), 'server', 'main.ts')], { env: { ...process.env, DATA_DIR: dataDir, PORT: '0', DATABASE_URL: '', LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.on('close', (code) => resolve({ code, out }));
    });
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('was moved');
    expect(refused.out).toContain('--force');

    // A second run finds everything there: nothing duplicated, nothing sent again.
    const again = await moveData({ config, toDatabase: target.url, toS3: toS3(), progress: () => undefined });
    expect(again.ok).toBe(true);
    expect(again.objects).toMatchObject({ count: objects.size, skipped: objects.size });
    expect(again.tables).toEqual(report.tables);
  }, 180_000);

  it('serves the same product from the target: the demo owner signs in with the same password', async () => {
    const moved = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: target.url, SEED: 'none', LOG_LEVEL: 'silent', WEB_DIR: join(dataDir, 'no-web') });
    const db = await connectDatabase({ databaseUrl: target.url, dataDir });
    const app = await buildApp({ config: moved, db });
    try {
      const login = await app.inject({ method: 'POST', url: '/api/v1/login', payload: { email: 'owner@demo.cutdesk.test', password: DEMO_PASSWORD } });
      expect(login.statusCode, login.body).toBe(200);
    } finally {
      await app.close();
      await db.destroy();
    }
  });
});
