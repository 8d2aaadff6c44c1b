import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { create, extract } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { lockDataDir } from '../../server/data-dir-lock.ts';
import { connectDatabase, embeddedPglite } from '../../server/db/connect.ts';
import { backupToken } from '../../server/ops/backup/backup-token.ts';
import { RestoreFailedError, RestoreRefusedError, restoreBackup } from '../../server/ops/backup/restore.ts';
import { DEMO_PASSWORD, signIn, startTestServer, type TestServer } from '../server/harness.ts';
import { MP4_FTYP } from '../support/file-fixtures.ts';
import { mountSmallDisk, smallDiskUnavailable, type SmallDisk } from '../support/small-disk.ts';
import { finalPreviewReady } from '../server/final-preview.ts';

/** Every table's rows, each table ordered by its first column (the id), as JSON text. */
async function tableRows(query: (text: string) => Promise<Record<string, unknown>[]>): Promise<Record<string, string[]>> {
  const tables = (
    await query(`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`)
  ).map((row) => String(row.name));
  const out: Record<string, string[]> = {};
  for (const table of tables) out[table] = (await query(`select * from "${table}" order by 1`)).map((row) => JSON.stringify(row));
  return out;
}

async function checksums(root: string): Promise<Map<string, string>> {
  const sums = new Map<string, string>();
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!(dir === root && entry.name === '.tmp')) await walk(path);
      } else
        sums.set(
          relative(root, path),
          createHash('sha256')
            .update(await readFile(path))
            .digest('hex'),
        );
    }
  };
  await walk(root);
  return sums;
}

/** `npm run <script>` as its own process: exit code and everything it printed. */
function run(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(process.cwd(), 'scripts', script), ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/**
 * Issue 15, backups: `npm run backup` takes one consistent archive of an embedded installation
 * while the server runs (here: while comments are being written), `npm run restore` brings it
 * back into an empty directory, and the restored installation is the same: every table a
 * committed state of the original, every object byte for byte, the same accounts signing in.
 */
describe('backup and restore of an embedded installation', () => {
  let server: TestServer;
  let work: string;
  let archive: string;
  let projectId: number;

  beforeAll(async () => {
    server = await startTestServer(null, { storage: true });
    work = await mkdtemp(join(tmpdir(), 'cutdesk-backup-'));
    archive = join(work, 'backup.tar');
    projectId = (await server.db.selectFrom('projects').select('id').where('name', '=', 'Product walkthrough').executeTakeFirstOrThrow()).id;
    // Objects of several sizes, one of them in a nested key.
    await server.app.ctx.storage.putObject(`projects/${projectId}/raw/assets/logo.png`, Buffer.from('a logo'), 'image/png');
    await server.app.ctx.storage.putObject(`projects/${projectId}/raw/b_roll/clip one.mp4`, Buffer.alloc(3 * 1024 * 1024, 7), 'video/mp4');
  });
  afterAll(async () => {
    await server?.close();
    await rm(work, { recursive: true, force: true });
  });

  const backupUrl = () => `${server.baseUrl}/api/v1/ops/backup`;

  it('answers only this machine’s callers holding the token derived from the server’s secret (404 to anyone else)', async () => {
    expect((await fetch(backupUrl())).status).toBe(404);
    expect((await fetch(backupUrl(), { headers: { authorization: 'Bearer guess' } })).status).toBe(404);
    const forwarded = await fetch(backupUrl(), {
      headers: { authorization: `Bearer ${backupToken(server.config.jwtSecret)}`, 'x-forwarded-for': '203.0.113.9' },
    });
    expect(forwarded.status).toBe(404);
  });

  it('takes a consistent archive while comments are written, and restores it exactly', async () => {
    const owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    const admin = await signIn(server.app, 'admin@demo.cutdesk.test');
    await server.app.ctx.storage.putObject(`projects/${projectId}/final/cut.mp4`, Buffer.concat([MP4_FTYP, Buffer.from('a final cut')]), 'video/mp4');
    expect(
      (
        await server.app.inject({
          method: 'POST',
          url: `/api/v1/projects/${projectId}/deliverable`,
          headers: admin,
          payload: { path: `projects/${projectId}/final`, name: 'cut.mp4' },
        })
      ).statusCode,
    ).toBe(200);
    // No media worker here: its preview is recorded as made (send to review waits for it, issue 36).
    await finalPreviewReady(server.db, projectId);
    expect((await server.app.inject({ method: 'POST', url: `/api/v1/projects/${projectId}/submit`, headers: admin })).statusCode).toBe(200);
    const objectsBefore = await checksums(join(server.dataDir, 's3'));

    // Writes keep coming while the archive is made (three accounts: each may write 60 a minute).
    const writers = [owner, admin, await signIn(server.app, 'user@demo.cutdesk.test')];
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing && written < 170) {
        const response = await server.app.inject({
          method: 'POST',
          url: `/api/v1/projects/${projectId}/comments`,
          headers: writers[written % 3]!,
          payload: { version: 1, frame: written, text: `Written during the backup ${written}` },
        });
        expect(response.statusCode).toBe(201);
        written += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const response = await fetch(backupUrl(), { headers: { authorization: `Bearer ${backupToken(server.config.jwtSecret)}` } });
    expect(response.status).toBe(200);
    await pipeline(Readable.fromWeb(response.body! as import('node:stream/web').ReadableStream), createWriteStream(archive));
    writing = false;
    await writer;
    expect(written).toBeGreaterThan(0);

    const restored = join(work, 'restored');
    const report = await restoreBackup(archive, restored);
    expect(report.mismatches).toEqual([]);
    // Issue 32: what the restore made is its owner's only, and no workspace is left beside it.
    for (const dir of [restored, join(restored, 'db'), join(restored, 's3')]) expect((await stat(dir)).mode & 0o777, dir).toBe(0o700);
    for (const file of ['jwt-secret', 's3-credentials.json']) expect((await stat(join(restored, file))).mode & 0o777, file).toBe(0o600);
    expect((await readdir(work)).filter((name) => name.includes('restoring'))).toEqual([]);

    // Objects: every one there before the backup, byte for byte.
    const objectsAfter = await checksums(join(restored, 's3'));
    for (const [path, sum] of objectsBefore) expect(objectsAfter.get(path), path).toBe(sum);

    // Tables: every table but the comments as it is now; the comments a prefix of today's (a committed state, nothing half-written).
    const live = embeddedPglite(server.db)!;
    const source = await tableRows(async (text) => (await live.query<Record<string, unknown>>(text)).rows);
    // The same parsers as the server's (server/db/connect.ts): dates as text, int8 and numeric as numbers.
    const pglite = await PGlite.create(join(restored, 'db'), { parsers: { 20: Number, 1700: Number, 1082: (v: string) => v } });
    const copy = await tableRows(async (text) => (await pglite.query<Record<string, unknown>>(text)).rows);
    await pglite.close();
    expect(Object.keys(copy)).toEqual(Object.keys(source));
    for (const table of Object.keys(source)) {
      // Counters and stamps that the running server keeps moving (rate-limit windows, link use) are not the backup's business.
      if (table === 'rate_limits' || table === 'review_comments') continue;
      expect(copy[table], table).toEqual(source[table]);
    }
    const comments = copy.review_comments!;
    expect(comments.length).toBeLessThanOrEqual(source.review_comments!.length);
    expect(comments).toEqual(source.review_comments!.slice(0, comments.length));
    expect(report.tables.review_comments).toBe(comments.length);

    // The restored installation starts and is the same product: the demo owner signs in with the same password.
    // No load shedding on a busy test machine (as the harness's servers): a 503 is not what this tests.
    const config = loadConfig({ DATA_DIR: restored, SEED: 'none', LOG_LEVEL: 'silent', WEB_DIR: join(restored, 'no-web'), MAX_EVENT_LOOP_DELAY_MS: '60000' });
    expect(config.jwtSecret).toBe(server.config.jwtSecret);
    const db = await connectDatabase({ databaseUrl: null, dataDir: restored });
    const app = await buildApp({ config, db });
    try {
      const login = await app.inject({ method: 'POST', url: '/api/v1/login', payload: { email: 'owner@demo.cutdesk.test', password: DEMO_PASSWORD } });
      expect(login.statusCode).toBe(200);
      // A session of the original server is valid on the restored one (same secret, same session versions).
      expect((await app.inject({ method: 'GET', url: `/api/v1/projects/${projectId}`, headers: owner })).statusCode).toBe(200);
    } finally {
      await app.close();
      await db.destroy();
    }
  }, 120_000);

  it('restores only into an empty directory, and names what does not match the archive', async () => {
    const busy = join(work, 'busy');
    await mkdir(busy);
    await writeFile(join(busy, 'something'), 'x');
    await expect(restoreBackup(archive, busy)).rejects.toBeInstanceOf(RestoreRefusedError);
    expect(existsSync(join(busy, 'db'))).toBe(false);
  });

  it('npm run backup opens a directory no server uses itself, and npm run restore brings it back (exit 0)', async () => {
    const source = join(work, 'restored');
    const again = join(work, 'again.tar');
    const backup = await run('backup.ts', [again], { DATA_DIR: source, LOG_LEVEL: 'silent' });
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toContain('no server was running');
    expect((await stat(again)).mode & 0o777).toBe(0o600);
    // The lock was released: nothing holds the directory afterwards.
    expect(existsSync(join(source, 'server.lock'))).toBe(false);
    const restore = await run('restore.ts', [again, '--data-dir', join(work, 'from-cli')], {});
    expect(restore.code, restore.out).toBe(0);
    expect(restore.out).toMatch(/review_comments\s+\d+ rows/);
    // A second backup to the same name is refused: a backup never overwrites a file.
    expect((await run('backup.ts', [again], { DATA_DIR: source })).code).toBe(2);
    // With PostgreSQL it says what to use instead.
    const external = await run('backup.ts', [join(work, 'pg.tar')], { DATA_DIR: source, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(external.code).toBe(2);
    expect(external.out).toContain('pg_dump');
  }, 120_000);

  it('with an external object store, archives the database and secrets, no object, and names the bucket the objects stay in', async () => {
    const source = join(work, 'restored');
    // The command says the objects are the bucket's to keep; none of DATA_DIR/s3 is taken. (A
    // second backup of a directory the command opened before: it must end, not hang, once written.)
    const s3 = {
      S3_ENDPOINT: 'https://s3.eu-central-1.amazonaws.com',
      S3_BUCKET: 'studio-media',
      S3_UPLOAD_ROLE_ARN: 'arn:aws:iam::123456789012:role/cutdesk-upload',
    };
    const bucket = await run('backup.ts', [join(work, 's3.tar')], { DATA_DIR: source, LOG_LEVEL: 'silent', ...s3 });
    expect(bucket.code, bucket.out).toBe(0);
    expect(bucket.out).toContain('The objects are not in this archive: they are in https://s3.eu-central-1.amazonaws.com/studio-media');
    expect(bucket.out).toContain('versioning');
    const fromBucket = await run('restore.ts', [join(work, 's3.tar'), '--data-dir', join(work, 'from-s3-backup')], {});
    expect(fromBucket.code, fromBucket.out).toBe(0);
    expect(fromBucket.out).toMatch(/review_comments\s+\d+ rows/);
    expect(fromBucket.out).toContain('objects: not in this archive; they are in https://s3.eu-central-1.amazonaws.com/studio-media');
    expect(existsSync(join(work, 'from-s3-backup', 's3', 'cutdesk-media'))).toBe(false);
  }, 240_000);

  it('a restore that fails half-way (a damaged database dump) leaves nothing: no half-filled directory, no workspace', async () => {
    // The archive as it was, but for its database dump: the objects and secrets restore, then the database cannot.
    const unpacked = join(work, 'damaged-archive');
    await mkdir(unpacked);
    await extract({ file: archive, cwd: unpacked });
    await writeFile(join(unpacked, 'db.tar.gz'), gzipSync(Buffer.from('not a database')));
    const damaged = join(work, 'damaged.tar');
    await pipeline(create({ cwd: unpacked, portable: true }, await readdir(unpacked)), createWriteStream(damaged));

    const fresh = join(work, 'never-made');
    const failure = await restoreBackup(damaged, fresh).then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(failure).toBeInstanceOf(RestoreFailedError);
    expect(failure!.message).toContain(`Nothing was left behind: ${fresh} was not created.`);
    expect(existsSync(fresh)).toBe(false);
    expect((await readdir(work)).filter((name) => name.includes('restoring'))).toEqual([]);
    // Into a directory made for it (a mount point, the service's own): left as empty as it was.
    const empty = join(work, 'made-empty');
    await mkdir(empty);
    await expect(restoreBackup(damaged, empty)).rejects.toThrow(`Nothing was left behind: ${empty} is as empty as it was.`);
    expect(await readdir(empty)).toEqual([]);
    // The command says so and exits 1.
    const cli = await run('restore.ts', [damaged, '--data-dir', fresh], {});
    expect(cli.code, cli.out).toBe(1);
    expect(cli.out).toContain('Nothing was left behind');
    expect(existsSync(fresh)).toBe(false);
  }, 60_000);

  it('npm run backup names the address it tried and how to give the right one when the server listens elsewhere', async () => {
    const source = join(work, 'restored');
    // A server holds the directory (this process, as one would) but nothing listens where the command asks.
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const lock = lockDataDir(source);
    try {
      const backup = await run('backup.ts', [join(work, 'elsewhere.tar')], { DATA_DIR: source, PORT: String(closed), LOG_LEVEL: 'silent' });
      expect(backup.code, backup.out).toBe(1);
      expect(backup.out).not.toMatch(/^fetch failed$/m);
      expect(backup.out).toContain(`Could not reach the server using ${source} (process ${process.pid} on `);
      expect(backup.out).toContain(`at http://127.0.0.1:${closed} (ECONNREFUSED)`);
      expect(backup.out).toContain(`PORT=<its port> npm run backup -- ${join(work, 'elsewhere.tar')}`);
      expect(backup.out).toContain('--url http://127.0.0.1:<its port>');
      expect(existsSync(join(work, 'elsewhere.tar'))).toBe(false);
    } finally {
      lock.release();
    }
  }, 60_000);

  /**
   * Issue 32, a full disk: a real 2 MiB tmpfs (tests/support/small-disk.ts). Writing the archive,
   * restoring one and staging one in the server's data directory each say the disk is full, and
   * leave nothing half-written.
   */
  describe.skipIf(smallDiskUnavailable)('on a full disk', () => {
    let disk: SmallDisk;
    beforeAll(() => {
      disk = mountSmallDisk('2m');
    });
    afterAll(() => disk?.unmount());

    it('npm run backup writing the archive: "The disk is full", no partial archive', async () => {
      const target = join(disk.dir, 'backup.tar');
      const backup = await run('backup.ts', [target], { DATA_DIR: join(work, 'restored'), LOG_LEVEL: 'silent' });
      expect(backup.code, backup.out).toBe(1);
      expect(backup.out).toContain(`The disk is full: writing the archive ${target} failed, no space is left on the file system of ${disk.dir}.`);
      expect(backup.out).toContain('No partial archive was left.');
      expect(await readdir(disk.dir)).toEqual([]);
    }, 60_000);

    it('npm run restore: "The disk is full", the directory not created', async () => {
      const target = join(disk.dir, 'restored');
      const restore = await run('restore.ts', [archive, '--data-dir', target], {});
      expect(restore.code, restore.out).toBe(1);
      expect(restore.out).toContain(`The disk is full: restoring ${archive} into ${target} failed`);
      expect(restore.out).toContain(`Nothing was left behind: ${target} was not created.`);
      expect(await readdir(disk.dir)).toEqual([]);
    }, 60_000);

    it('the running server staging a backup in its data directory: 507, and the command says the disk is full', async () => {
      const dataDir = join(disk.dir, 'data');
      const config = loadConfig({ DATA_DIR: dataDir, SEED: 'none', LOG_LEVEL: 'silent', WEB_DIR: join(dataDir, 'no-web'), MAX_EVENT_LOOP_DELAY_MS: '60000' });
      const db = await connectDatabase({ databaseUrl: null, dataDir, inMemory: true, migrated: true });
      const app = await buildApp({ config, db });
      const lock = lockDataDir(dataDir);
      const free = disk.fill();
      try {
        const address = await app.listen({ host: '127.0.0.1', port: 0 });
        const answer = await fetch(`${address}/api/v1/ops/backup`, { headers: { authorization: `Bearer ${backupToken(config.jwtSecret)}` } });
        expect(answer.status).toBe(507);
        expect(((await answer.json()) as { message: string }).message).toContain(
          `The disk is full: staging the backup in the data directory (the database's dump beside the objects' hard links) failed, no space is left on the file system of ${dataDir}.`,
        );
        const backup = await run('backup.ts', [join(work, 'from-full.tar')], { DATA_DIR: dataDir, PORT: new URL(address).port, LOG_LEVEL: 'silent' });
        expect(backup.code, backup.out).toBe(1);
        expect(backup.out).toContain(`The server at ${address} could not make the backup: The disk is full`);
        expect(existsSync(join(work, 'from-full.tar'))).toBe(false);
        expect((await readdir(dataDir)).filter((name) => name.startsWith('.backup-'))).toEqual([]);
      } finally {
        free();
        lock.release();
        await app.close();
      }
    }, 60_000);
  });
});
