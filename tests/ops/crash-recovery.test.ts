import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedKey } from '../../src/domain/media.ts';
import { jobQueue } from '../../server/repositories/media-jobs.ts';
import { DEFAULT_LEASE_MS } from '../../server/media/runner.ts';
import { startMediaWorker } from '../../server/media/worker.ts';
import { ffprobe, generateClip, hasFfmpeg } from '../support/media.ts';
import { startTestServer, type TestServer } from '../server/harness.ts';

const SERVER_URL = process.env.TEST_DATABASE_URL ?? null;
const withFfmpeg = await hasFfmpeg();

/** The processes whose parent is `pid` and whose command is `name` (from /proc). */
function childrenNamed(pid: number, name: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces, so read around its parentheses.
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid && comm === name) found.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return found;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Issue 32: an instance that dies mid-transcode (kill -9: no shutdown, no lease handed back)
 * loses its job to another instance within seconds, not after a minute: the lease is short and
 * renewed while the instance lives, and a first expiry puts the job back at once. Two real
 * instances on one PostgreSQL database and one object store: the one killed is a `server/main.ts`
 * process; the survivor is this process's server (its embedded store serves both), whose media
 * worker starts once the other is dead. PostgreSQL only: one embedded database has one instance.
 */
describe.skipIf(!SERVER_URL || !withFfmpeg)('a media job whose instance was killed (PostgreSQL)', () => {
  let survivor: TestServer;
  let victim: ChildProcess | undefined;
  let victimLog = '';
  let stopWorker: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    survivor = await startTestServer(SERVER_URL, { storage: true });
  }, 60_000);
  afterAll(async () => {
    victim?.kill('SIGKILL');
    await stopWorker?.();
    await survivor?.close();
  });

  it("is taken over by another instance at the lease's end and done once", async () => {
    const { db } = survivor;
    const project = await db.selectFrom('projects').select('id').where('name', '=', 'Product walkthrough').executeTakeFirstOrThrow();
    const key = `projects/${project.id}/assets/crash-test.mp4`;
    const clip = await generateClip({ seconds: 6, width: 640, height: 360 });
    await survivor.app.ctx.storage.putObject(key, clip, 'video/mp4');
    const asset = await db
      .insertInto('assets')
      .values({ projectId: project.id, name: 'crash-test.mp4', size: clip.length, type: 'INTERVIEW_CLIP', path: key, previewPath: null, deletedAt: null })
      .returning('id')
      .executeTakeFirstOrThrow();

    // The instance that will die: `npm start`'s server on the same database, using this one's store.
    const keys = JSON.parse(await readFile(join(survivor.dataDir, 's3-credentials.json'), 'utf8')) as { accessKeyId: string; secretAccessKey: string };
    const child = spawn(process.execPath, [resolve('server/main.ts')], {
      env: {
        ...process.env,
        PORT: '0',
        DATA_DIR: join(survivor.dataDir, 'victim'),
        WEB_DIR: join(survivor.dataDir, 'no-web'),
        DATABASE_URL: survivor.config.databaseUrl!,
        SEED: 'none',
        LOG_LEVEL: 'warn',
        S3_ENDPOINT: `${survivor.baseUrl}/s3`,
        S3_ACCESS_KEY_ID: keys.accessKeyId,
        S3_SECRET_ACCESS_KEY: keys.secretAccessKey,
        S3_UPLOAD_CREDENTIALS: 'database',
        MEDIA_CONCURRENCY: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    victim = child;
    child.stdout!.on('data', (chunk: Buffer) => (victimLog += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (victimLog += chunk.toString()));
    const started = Date.now();
    while (!victimLog.includes('Cutdesk is running at')) {
      if (child.exitCode !== null || Date.now() - started > 60_000) throw new Error(`the instance did not start:\n${victimLog}`);
      await pause(50);
    }

    const [jobId] = await jobQueue(db).enqueue([
      { kind: 'asset.proxy', projectId: project.id, assetId: asset.id, sourceKey: key, outputKey: derivedKey(key, 'proxy'), priority: 70 },
    ]);
    const victimWorker = `${hostname()}:${child.pid}:`;
    // Mid-transcode: the job is the victim's and its ffmpeg runs.
    let transcoders: number[];
    for (;;) {
      const job = (await jobQueue(db).get(jobId!))!;
      expect(job.status, `the victim finished before it could be killed:\n${victimLog}`).not.toBe('done');
      transcoders = job.status === 'running' && job.lockedBy?.startsWith(victimWorker) ? childrenNamed(child.pid!, 'ffmpeg') : [];
      if (transcoders.length > 0) break;
      if (child.exitCode !== null) throw new Error(`the instance exited:\n${victimLog}`);
      await pause(20);
    }
    // The lease it holds is the short one (renewed every third of it while the instance lives).
    const {
      rows: [lease],
    } = await sql<{ seconds: number }>`select extract(epoch from locked_until - now())::float8 as seconds from media_jobs where id = ${jobId!}`.execute(db);
    expect(lease!.seconds).toBeLessThanOrEqual(DEFAULT_LEASE_MS / 1000);

    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    const killedAt = Date.now();
    // Its ffmpeg would finish on its own, an orphan whose work nobody collects; here it is ended with it.
    for (const pid of transcoders) process.kill(pid, 'SIGKILL');
    await exited;

    stopWorker = startMediaWorker(survivor.app, 1);
    const survivorWorker = `${hostname()}:${process.pid}:`;
    let takenAfter: number | null = null;
    for (;;) {
      const job = (await jobQueue(db).get(jobId!))!;
      if (takenAfter === null && (job.lockedBy?.startsWith(survivorWorker) || job.status === 'done')) takenAfter = (Date.now() - killedAt) / 1000;
      if (job.status === 'done' || job.status === 'failed') break;
      if (Date.now() - killedAt > 120_000) throw new Error(`not done 120 s after the kill: ${JSON.stringify(job)}`);
      await pause(100);
    }
    console.info(`crash recovery: the job was taken by the other instance ${takenAfter!.toFixed(1)} s after kill -9 (lease ${DEFAULT_LEASE_MS / 1000} s)`);

    const job = (await jobQueue(db).get(jobId!))!;
    expect(job.status).toBe('done');
    // Run by the survivor, once, after the victim's attempt: no back-off for a first crash.
    expect(job.attempts).toBe(2);
    expect(job.lastError).toMatch(/lease expired after attempt 1/);
    const row = await db.selectFrom('assets').select('previewPath').where('id', '=', asset.id).executeTakeFirstOrThrow();
    expect(row.previewPath).toBe(derivedKey(key, 'proxy'));
    const proxyUrl = await survivor.app.ctx.storage.presignGet(row.previewPath!, 60);
    const probed = await ffprobe(proxyUrl);
    expect(probed.duration).toBeGreaterThan(5.5);
  }, 180_000);
});
