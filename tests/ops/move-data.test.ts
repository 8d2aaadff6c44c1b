import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateMultipartUploadCommand, GetObjectCommand, ListMultipartUploadsCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import { connectDatabase } from '../../server/db/connect.ts';
import { lockDataDir } from '../../server/data-dir-lock.ts';
import { migrateToLatest } from '../../server/migrations/index.ts';
import { movedStartRefusal, readMovedMarker } from '../../server/ops/move-data/marker.ts';
import { MoveRefusedError, moveData } from '../../server/ops/move-data/move.ts';
import { clientOf } from '../../server/ops/move-data/object-copy.ts';
import { seedDemo } from '../../server/seed/demo.ts';
import { embeddedS3Plugin } from '../../server/storage/embedded-s3/index.ts';
import { connectStorage } from '../../server/storage/setup.ts';
import { DEMO_PASSWORD, startTestServer, throwawayDatabase, type TestServer } from '../server/harness.ts';

const SERVER_URL = process.env.TEST_DATABASE_URL ?? null;

/** A process started by this test, with its output so far and its exit. */
function run(args: string[], env: Record<string, string>, until?: RegExp): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: '', S3_ENDPOINT: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const hear = (chunk: Buffer) => {
      out += chunk.toString();
      // A server that started as expected is stopped again (by its own pid).
      if (until?.test(out)) child.kill('SIGTERM');
    };
    child.stdout.on('data', hear);
    child.stderr.on('data', hear);
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** Every table's rows as PostgreSQL renders them (UTC), each table by its first column. */
async function everyRow(query: (text: string) => Promise<Record<string, unknown>[]>): Promise<Record<string, string[]>> {
  await query(`set timezone = 'UTC'`);
  const tables = (
    await query(
      `select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'kysely%' and table_name not like 'cutdesk_move%' order by 1`,
    )
  ).map((r) => String(r.name));
  const out: Record<string, string[]> = {};
  for (const table of tables) out[table] = (await query(`select row_to_json(t)::text as j from "${table}" t order by 1`)).map((r) => String(r.j));
  return out;
}

/** Each sequence's next value, without taking it: `name value`. */
async function nextValues(query: (text: string) => Promise<Record<string, unknown>[]>): Promise<string[]> {
  const names = (
    await query(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relkind = 'S' and n.nspname = 'public' order by 1`,
    )
  ).map((r) => String(r.name));
  const out: string[] = [];
  for (const name of names) {
    const [row] = await query(`select last_value::int + (case when is_called then 1 else 0 end) as next from "${name}"`);
    out.push(`${name} ${String(row!.next)}`);
  }
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
    // Values a JavaScript round trip would change (microseconds), and a sequence no column owns.
    await sql`update organizations set created_at = '2026-01-02 03:04:05.123456+00' where id = (select min(id) from organizations)`.execute(db);
    await sql`select nextval('invoice_numbers') from generate_series(1, 7)`.execute(db);
    const app = await buildApp({ config, db });
    await app.listen({ host: '127.0.0.1', port: 0 });
    await connectStorage(app);
    for (const [key, body] of [
      ['projects/1/raw/assets/logo.png', Buffer.from('a logo')],
      ['projects/1/raw/b_roll/clip one.mp4', Buffer.alloc(5 * 1024 * 1024 + 3, 9)],
      ['projects/1/final/café ☕.mp4', Buffer.from('a final cut')],
      // Over one part (16 MiB): copied as a multipart upload, which an interruption must abort.
      ['projects/1/raw/b_roll/long take.mp4', Buffer.alloc(17 * 1024 * 1024, 5)],
    ] as const) {
      await app.ctx.storage.putObject(key, body, 'application/octet-stream');
      objects.set(key, createHash('sha256').update(body).digest('hex'));
    }
    // The logo is an asset of the first project, as an upload would have registered it.
    await sql`insert into assets (project_id, name, size, type, path, preview_path) values (1, 'logo.png', 6, 'ASSET', 'projects/1/raw/assets/logo.png', 'projects/1/raw/assets/logo.png')`.execute(
      db,
    );
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

  const toS3 = () => ({
    endpoint: `${store.baseUrl}/s3`,
    bucket: store.config.storage.bucket,
    region: store.config.storage.region,
    accessKeyId: store.config.storage.accessKeyId,
    secretAccessKey: store.config.storage.secretAccessKey,
    forcePathStyle: true,
  });

  it('refuses a target that holds something else', async () => {
    const other = await throwawayDatabase(SERVER_URL!);
    try {
      const client = new pg.Client({ connectionString: other.url });
      await client.connect();
      await client.query('create table organizations (id serial primary key, name text)');
      await client.query(`insert into organizations (name) values ('Someone else')`);
      await client.end();
      await expect(moveData({ config, toDatabase: other.url, toS3: null, progress: () => undefined })).rejects.toThrow(MoveRefusedError);
      await expect(moveData({ config, toDatabase: other.url, toS3: null, progress: () => undefined })).rejects.toThrow(/not empty: organizations \(1 rows\)/);
    } finally {
      await other.drop();
    }
  });

  it('refuses while a server uses the data directory', async () => {
    // This process holds the lock as a running server would; the command runs as its own process.
    const lock = lockDataDir(dataDir);
    try {
      const refused = await run([join(process.cwd(), 'scripts', 'move-data.ts'), '--to-database', target.url, '--data-dir', dataDir], {});
      expect(refused.code, refused.out).toBe(2);
      expect(refused.out).toContain('Cannot move while a server uses the data directory');
    } finally {
      lock.release();
    }
  }, 60_000);

  it('moves every row and object exactly, after an interruption, and marks the old directory', async () => {
    // A target a server already migrated (SEED=none) counts as empty: it holds only the plans the migrations insert.
    const migrated = await connectDatabase({ databaseUrl: target.url, dataDir });
    await migrateToLatest(migrated);
    await migrated.destroy();

    const lines: string[] = [];
    await expect(
      moveData({ config, toDatabase: target.url, toS3: toS3(), progress: (line) => lines.push(line), stopAfterRows: 15, batchRows: 4 }),
    ).rejects.toThrow('interrupted');
    // The old directory is not marked until the move verified; its lock is free again.
    expect(readMovedMarker(dataDir)).toBeNull();
    const partly = new pg.Client({ connectionString: target.url });
    await partly.connect();
    // Each page landed with its progress record: the record counts exactly the rows that are there.
    const { rows: recorded } = await partly.query<{ table_name: string; rows: string }>('select table_name, rows from cutdesk_move_tables');
    let landed = 0;
    for (const { table_name: table, rows } of recorded) {
      const {
        rows: [count],
      } = await partly.query<{ n: string }>(`select count(*) as n from "${table}"`);
      expect(Number(count!.n), table).toBe(Number(rows));
      landed += Number(rows);
    }
    await partly.end();
    expect(landed).toBeGreaterThanOrEqual(15);
    expect(landed).toBeLessThan(19);
    const report = await moveData({ config, toDatabase: target.url, toS3: toS3(), progress: (line) => lines.push(line) });
    expect(report.ok, JSON.stringify(report)).toBe(true);
    expect(lines.some((line) => /^rows \[#+ *\] \d+\/\d+ /.test(line))).toBe(true);
    expect(lines.some((line) => line.startsWith('bytes ['))).toBe(true);
    expect(report.objects).toMatchObject({ source: { count: objects.size }, verified: { count: objects.size }, mismatches: [] });
    expect(report.sequences.every((seq) => seq.target === seq.source)).toBe(true);
    for (const table of report.tables) expect(table.target, table.name).toBe(table.source);

    // Every value, as PostgreSQL renders it.
    const source = await PGlite.create(join(dataDir, 'db'));
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      const before = await everyRow(async (text) => (await source.query<Record<string, unknown>>(text)).rows);
      const after = await everyRow(async (text) => (await client.query<Record<string, unknown>>(text)).rows);
      expect(after).toEqual(before);
      expect(JSON.stringify(after.organizations)).toContain('2026-01-02T03:04:05.123456+00:00');
      // Every sequence continues where it did: ids, and invoice numbers.
      const sourceNext = await nextValues(async (text) => (await source.query<Record<string, unknown>>(text)).rows);
      expect(await nextValues(async (text) => (await client.query<Record<string, unknown>>(text)).rows)).toEqual(sourceNext);
      expect(sourceNext).toContain('invoice_numbers 8');
      // Sequences continue after the copied ids.
      const { rows } = await client.query<{ id: number; max: number }>(
        `insert into organizations (name) values ('New after the move') returning id, (select max(id) from organizations where name <> 'New after the move') as max`,
      );
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

    // A second run, by the command itself, finds everything there: nothing duplicated, nothing sent again.
    const again = await run(
      [
        join(process.cwd(), 'scripts', 'move-data.ts'),
        '--to-database',
        target.url,
        '--to-s3-endpoint',
        toS3().endpoint,
        '--to-s3-bucket',
        toS3().bucket,
        '--data-dir',
        dataDir,
      ],
      { MOVE_S3_ACCESS_KEY_ID: toS3().accessKeyId, MOVE_S3_SECRET_ACCESS_KEY: toS3().secretAccessKey },
    );
    expect(again.code, again.out).toBe(0);
    expect(again.out).toContain(`objects: source ${objects.size} `);
    expect(again.out).toContain(`; ${objects.size} were there already`);
    expect(again.out).not.toContain('MISMATCH');
    for (const table of report.tables) expect(again.out).toMatch(new RegExp(`${table.name} +${table.source} +${table.target}\n`));
    // Issue 32: the advice fits the target, another Cutdesk's embedded store (no STS).
    expect(again.out).toContain(`S3_ENDPOINT=${toS3().endpoint} S3_BUCKET=${toS3().bucket} S3_REGION=${toS3().region} S3_UPLOAD_CREDENTIALS=database`);
    expect(again.out).not.toContain('S3_UPLOAD_ROLE_ARN');

    // The server itself says so and stops, unless forced.
    const server = [join(process.cwd(), 'server', 'main.ts')];
    const env = { DATA_DIR: dataDir, PORT: '0', SEED: 'none', WEB_DIR: join(dataDir, 'no-web') };
    const refused = await run(server, env);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('was moved');
    expect(refused.out).toContain('MOVED.json');
    expect(refused.out).toContain('--force');
    const forced = await run([...server, '--force'], env, /Cutdesk is running/);
    expect(forced.out).toContain('Starting anyway (--force)');
    expect(forced.out).toContain('Cutdesk is running');
    const forcedByEnv = await run(server, { ...env, CUTDESK_FORCE: '1' }, /Cutdesk is running/);
    expect(forcedByEnv.out).toContain('Cutdesk is running');
  }, 240_000);

  it('serves the same product from the target and the other bucket: the same accounts, passwords, projects, timers, assets and bytes', async () => {
    // DATABASE_URL and S3_ENDPOINT as the report says, on the same directory (its secret); the
    // moved directory's own embedded copy is opened beside it to compare what each one serves.
    const moved = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: target.url,
      S3_ENDPOINT: toS3().endpoint,
      S3_BUCKET: toS3().bucket,
      S3_REGION: toS3().region,
      S3_ACCESS_KEY_ID: toS3().accessKeyId,
      S3_SECRET_ACCESS_KEY: toS3().secretAccessKey,
      S3_UPLOAD_CREDENTIALS: 'database',
      SEED: 'none',
      LOG_LEVEL: 'silent',
      WEB_DIR: join(dataDir, 'no-web'),
    });
    const db = await connectDatabase({ databaseUrl: target.url, dataDir });
    const app = await buildApp({ config: moved, db });
    const sourceDb = await connectDatabase({ databaseUrl: null, dataDir });
    const source = await buildApp({ config, db: sourceDb });
    try {
      const signIn = async (email: string) => {
        const login = await app.inject({ method: 'POST', url: '/api/v1/login', payload: { email, password: DEMO_PASSWORD } });
        expect(login.statusCode, `${email}: ${login.body}`).toBe(200);
        return { authorization: `Bearer ${login.json<{ token: string }>().token}` };
      };
      const owner = await signIn('owner@demo.cutdesk.test');
      const admin = await signIn('admin@demo.cutdesk.test');
      // A session handed out before the move is still good (same secret, same session versions).
      const before = await source.inject({ method: 'POST', url: '/api/v1/login', payload: { email: 'admin@demo.cutdesk.test', password: DEMO_PASSWORD } });
      const oldSession = { authorization: `Bearer ${before.json<{ token: string }>().token}` };
      expect((await app.inject({ method: 'GET', url: '/api/v1/me', headers: oldSession })).statusCode).toBe(200);

      // Every project as the API shows it: names, statuses, people, timers (paused, submitted,
      // review start and days left); links to objects name the other store, so they are left out.
      const ids = (await sourceDb.selectFrom('projects').select('id').orderBy('id').execute()).map((row) => row.id);
      expect(ids.length).toBeGreaterThan(5);
      const withoutLinks = (project: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(project).filter(([key]) => !/Url$|Thumbnail$|Preview$/.test(key)));
      for (const id of ids) {
        const there = await app.inject({ method: 'GET', url: `/api/v1/projects/${id}`, headers: admin });
        const here = await source.inject({ method: 'GET', url: `/api/v1/projects/${id}`, headers: oldSession });
        expect(there.statusCode, `project ${id}`).toBe(here.statusCode);
        if (here.statusCode === 200) expect(withoutLinks(there.json()), `project ${id}`).toEqual(withoutLinks(here.json()));
      }

      // The asset, and its bytes through the link the moved server hands out (the other bucket).
      const assets = await app.inject({ method: 'GET', url: '/api/v1/projects/1/assets', headers: owner });
      expect(assets.statusCode, assets.body).toBe(200);
      const [logo] = assets.json<{ name: string; url: string }[]>();
      expect(logo!.name).toBe('logo.png');
      expect(logo!.url.startsWith(`${toS3().endpoint}/`)).toBe(true);
      const download = await fetch(logo!.url);
      expect(download.status).toBe(200);
      expect(
        createHash('sha256')
          .update(Buffer.from(await download.arrayBuffer()))
          .digest('hex'),
      ).toBe(objects.get('projects/1/raw/assets/logo.png'));
    } finally {
      await source.close();
      await sourceDb.destroy();
      await app.close();
      await db.destroy();
    }
  });

  it('Ctrl-C stops cleanly: the multipart upload in flight is aborted, it says what happened and the command to resume; that command aborts what a killed run left and finishes', async () => {
    // A target store whose part uploads wait until the test lets them through: the interruption
    // comes while the 17 MiB object's parts are in flight.
    const root = await mkdtemp(join(tmpdir(), 'cutdesk-move-gated-'));
    const keys = { accessKeyId: 'AKIAGATEDSTORETEST', secretAccessKey: 'gated-store-secret-key' };
    let partArrived!: () => void;
    const arrived = new Promise<void>((resolve) => (partArrived = resolve));
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const gated = Fastify();
    gated.addHook('onRequest', async (request) => {
      if (!/[?&]partNumber=/.test(request.url)) return;
      partArrived();
      await gate;
    });
    await gated.register(embeddedS3Plugin, {
      prefix: '/s3',
      root,
      bucket: 'gated-media',
      region: 'us-east-1',
      credentials: { lookup: async (id) => (id === keys.accessKeyId ? { secretAccessKey: keys.secretAccessKey } : null) },
    });
    const endpoint = `${await gated.listen({ host: '127.0.0.1', port: 0 })}/s3`;
    const s3 = clientOf({ endpoint, region: 'us-east-1', bucket: 'gated-media', forcePathStyle: true, ...keys });
    const uploads = async () => ((await s3.send(new ListMultipartUploadsCommand({ Bucket: 'gated-media' }))).Uploads ?? []).map((upload) => upload.Key).sort();
    const other = await throwawayDatabase(SERVER_URL!);
    const env = { MOVE_S3_ACCESS_KEY_ID: keys.accessKeyId, MOVE_S3_SECRET_ACCESS_KEY: keys.secretAccessKey };
    const args = ['--to-database', other.url, '--to-s3-endpoint', endpoint, '--to-s3-bucket', 'gated-media'];
    try {
      // The command as an operator runs it, DATA_DIR from the environment; Ctrl-C once a part is in flight.
      const child = spawn(process.execPath, [join(process.cwd(), 'scripts', 'move-data.ts'), ...args], {
        env: { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: '', S3_ENDPOINT: '', DATA_DIR: dataDir, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      await arrived;
      child.kill('SIGINT');
      const code = await exited;
      expect(code, out).toBe(130);
      expect(out).toContain('Interrupted by Ctrl-C (SIGINT). The move stopped while copying the objects: 3 of 4 are in gated-media');
      expect(out).toContain('projects/1/raw/b_roll/long take.mp4 was on its way.');
      expect(out).toContain(
        'Aborted the unfinished multipart upload of projects/1/raw/b_roll/long take.mp4 in gated-media: no half-sent object is left there.',
      );
      expect(out).toContain('To finish the move, run the same command again:');
      expect(await uploads()).toEqual([]);
      openGate();
      // The command it printed: the same arguments, and the directory that came from DATA_DIR.
      const printed = /^ {2}npm run move-data -- (.+)$/m.exec(out)?.[1];
      expect(printed).toBe([...args, '--data-dir', dataDir].join(' '));
      expect(out).toContain('(with MOVE_S3_ACCESS_KEY_ID and MOVE_S3_SECRET_ACCESS_KEY set as they are now)');

      // What a run killed outright (kill -9) leaves: an upload of an object it was copying, with a
      // part. Beside it, an upload of a key this move does not copy, which is none of its business.
      const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: 'gated-media', Key: 'projects/1/raw/b_roll/long take.mp4' }));
      await s3.send(
        new UploadPartCommand({ Bucket: 'gated-media', Key: 'projects/1/raw/b_roll/long take.mp4', UploadId, PartNumber: 1, Body: Buffer.alloc(1024, 1) }),
      );
      await s3.send(new CreateMultipartUploadCommand({ Bucket: 'gated-media', Key: 'projects/9/raw/assets/someone else.mp4' }));

      const again = await run([join(process.cwd(), 'scripts', 'move-data.ts'), ...printed!.split(' ')], env);
      expect(again.code, again.out).toBe(0);
      expect(again.out).toContain('aborted 1 unfinished multipart upload an earlier run left in gated-media: projects/1/raw/b_roll/long take.mp4');
      expect(again.out).toContain(`objects: source ${objects.size} `);
      expect(again.out).toContain('; 3 were there already');
      expect(again.out).not.toContain('MISMATCH');
      expect(await uploads()).toEqual(['projects/9/raw/assets/someone else.mp4']);
      const copy = await s3.send(new GetObjectCommand({ Bucket: 'gated-media', Key: 'projects/1/raw/b_roll/long take.mp4' }));
      const hash = createHash('sha256');
      for await (const chunk of copy.Body as Readable) hash.update(chunk as Buffer);
      expect(hash.digest('hex')).toBe(objects.get('projects/1/raw/b_roll/long take.mp4'));
    } finally {
      openGate();
      s3.destroy();
      await gated.close();
      await other.drop();
      await rm(root, { recursive: true, force: true });
    }
  }, 120_000);
});
