import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { lockDataDir } from '../../server/data-dir-lock.ts';
import { startFromImage } from '../../server/db/image.ts';
import { createMailer } from '../../server/services/mailer.ts';
import { startFailureMessage } from '../../server/storage/disk-full.ts';
import { mountSmallDisk, smallDiskUnavailable, type SmallDisk } from '../support/small-disk.ts';

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

/**
 * Issue 32: what the product makes in DATA_DIR is its owner's only (0700 directories, 0600
 * files; db/ and s3/ were 0755), and a first start on a full disk says so instead of
 * `Error: [object Object]`, leaving no half-made database behind. (The store's own files:
 * tests/storage/disk-full.test.ts; backups and restores: tests/ops/backup.test.ts.)
 */
describe('data directories', () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'cutdesk-data-dir-'));
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it("DATA_DIR, its secrets, a new database directory and the outbox are their owner's only", async () => {
    // A DATA_DIR (and its parent) the server makes, with the secrets it generates.
    const dataDir = join(work, 'new', 'data');
    loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    expect(await modeOf(dataDir)).toBe(0o700);
    for (const secret of ['jwt-secret', 's3-credentials.json']) expect(await modeOf(join(dataDir, secret)), secret).toBe(0o600);
    expect((await readdir(dataDir)).sort()).toEqual(['jwt-secret', 's3-credentials.json']);
    // The lock makes the directory too when it is the first to touch it (move-data, backup).
    lockDataDir(join(work, 'locked')).release();
    expect(await modeOf(join(work, 'locked'))).toBe(0o700);

    // A new database without this machine's image yet (the first start on a machine) is left
    // empty for PGlite's initdb, which keeps a directory's mode (it made its own 0755). One
    // unpacked from the image was 0700 already (server/db/image.ts).
    expect(startFromImage(join(work, 'no-image.tar.gz'), join(work, 'initdb', 'db'))).toBe(false);
    expect(await modeOf(join(work, 'initdb', 'db'))).toBe(0o700);
    expect(await readdir(join(work, 'initdb', 'db'))).toEqual([]);

    // The outbox: messages hold sign-in and invitation links.
    const log = { info: () => undefined } as unknown as FastifyBaseLogger;
    await createMailer({ smtpUrl: null, outboxDir: join(dataDir, 'outbox'), from: 'studio@cutdesk.test', log }).send({
      to: 'ivy@demo.cutdesk.test',
      subject: 'Hello',
      text: 'Hello',
      html: '<p>Hello</p>',
      links: [],
    });
    expect(await modeOf(join(dataDir, 'outbox'))).toBe(0o700);
    const [mail] = await readdir(join(dataDir, 'outbox'));
    expect(await modeOf(join(dataDir, 'outbox', mail!))).toBe(0o600);
  });

  describe.skipIf(smallDiskUnavailable)('a first start on a full disk', () => {
    let disk: SmallDisk;
    /** PGlite's own error on this disk, seen by the helper in a process of its own (started beside the first test's). */
    let pgliteSeen: Promise<string>;
    beforeAll(() => {
      disk = mountSmallDisk('2m');
      // In a process of its own: a PGlite that failed to open keeps its files open (the disk could
      // not be unmounted). 2 MiB are far too few for initdb's 40 MB.
      const url = (path: string) => pathToFileURL(join(process.cwd(), path)).href;
      const dataDir = join(disk.dir, 'data');
      const script = `
        import { PGlite } from '@electric-sql/pglite';
        import { isDiskFull, startFailureMessage } from ${JSON.stringify(url('server/storage/disk-full.ts'))};
        import { errorFields, errorFrom } from ${JSON.stringify(url('server/db/pglite-protocol.ts'))};
        let thrown;
        try { await PGlite.create(${JSON.stringify(join(disk.dir, 'pglite'))}); } catch (error) { thrown = error; }
        const crossed = errorFrom(errorFields(thrown));
        console.log(JSON.stringify({ isError: thrown instanceof Error, diskFull: isDiskFull(thrown), direct: startFailureMessage(thrown, ${JSON.stringify(dataDir)}), crossedMessage: crossed.message, crossed: startFailureMessage(crossed, ${JSON.stringify(dataDir)}) }));
        process.exit(0);`;
      pgliteSeen = new Promise<string>((resolve) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
        child.on('close', () => resolve(text));
      });
    });
    afterAll(async () => {
      await pgliteSeen;
      disk?.unmount();
    });

    it('stops saying the disk is full, not `Error: [object Object]`, and leaves no half-made db/', async () => {
      const dataDir = join(disk.dir, 'data');
      const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const env = {
          ...process.env,
          DATA_DIR: dataDir,
          PORT: '0',
          S3_PORT: 'off',
          SEED: 'none',
          LOG_LEVEL: 'silent',
          DATABASE_URL: '',
          S3_ENDPOINT: '',
          WEB_DIR: join(dataDir, 'no-web'),
        };
        const child = spawn(process.execPath, [join(process.cwd(), 'server', 'main.ts')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
        child.on('close', (exit) => resolve({ code: exit, out: text }));
      });
      expect(code, out).toBe(1);
      expect(out).not.toContain('[object Object]');
      // server/main.ts prints startFailureMessage's words where it is wired; the error it gets names ENOSPC either way.
      expect(out).toMatch(/The disk is full|ENOSPC: the embedded database could not read or write its files \(no space left on device\)/);
      expect(existsSync(join(dataDir, 'db'))).toBe(false);
      // The secrets were written whole (or not at all): no draft beside them.
      expect((await readdir(dataDir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    }, 60_000);

    it("startFailureMessage: PGlite's own error for a full disk, as thrown and as it crosses from its thread, in words", async () => {
      const dataDir = join(disk.dir, 'data');
      const out = await pgliteSeen;
      const seen = JSON.parse(out) as { isError: boolean; diskFull: boolean; direct: string; crossedMessage: string; crossed: string };
      // PGlite's file system throws a plain object, not an Error.
      expect(seen.isError).toBe(false);
      expect(seen.diskFull).toBe(true);
      const expected = `The disk is full: starting the server (writing the data directory) failed, no space is left on the file system of ${dataDir}. Free some space there (df -h ${dataDir} shows it) and try again.`;
      expect(seen.direct).toBe(expected);
      expect(seen.crossedMessage).toContain('ENOSPC');
      expect(seen.crossed).toBe(expected);
      // Anything else keeps its stack, and an object that is not an Error says what it holds.
      const other = new Error('something else');
      expect(startFailureMessage(other, dataDir)).toBe(other.stack);
      expect(startFailureMessage({ reason: 'odd' }, dataDir)).toBe("The server could not start: { reason: 'odd' }");
    }, 30_000);
  });
});
