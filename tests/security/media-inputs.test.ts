import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FILE_MESSAGES } from '../../src/domain/file-signature.ts';
import { mediaTools, probe } from '../../server/media/ffmpeg.ts';
import { CHECKSUM_KIND, enqueueAssetMedia, mediaHandlers } from '../../server/media/pipeline.ts';
import { startRunner, type Runner } from '../../server/media/runner.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from '../server/harness.ts';
import { MP4_FTYP } from '../support/file-fixtures.ts';
import { generateClip, hasFfmpeg } from '../support/media.ts';
import { apiOf, type Headers } from './content-support.ts';

/**
 * Issue 9, "The media pipeline fetches what a customer tells it to": a clip that is a
 * playlist or a list of files would make ffprobe/ffmpeg request any address from the server.
 * A local listener records every request; after each attempt it must have seen none.
 */

const exec = promisify(execFile);
const withFfmpeg = await hasFfmpeg();

describe.each(DATABASES)('media inputs on $name', ({ url }) => {
  let server: TestServer;
  let api: ReturnType<typeof apiOf>;
  let owner: Headers;
  let runner: Runner;
  let listener: Server;
  let hits: string[];
  let trap: string;
  let tmp: string;

  const jobsOf = (assetId: number) => server.db.selectFrom('mediaJobs').select(['kind', 'status', 'lastError']).where('assetId', '=', assetId).execute();
  /** The asset's checksum job (a plain read of the stored bytes) apart from its ffmpeg jobs. */
  const splitJobs = <Job extends { kind: string }>(all: Job[]) => ({
    checksum: all.find((job) => job.kind === CHECKSUM_KIND),
    jobs: all.filter((job) => job.kind !== CHECKSUM_KIND),
  });
  const assetIdOf = async (key: string) => (await server.db.selectFrom('assets').select('id').where('path', '=', key).executeTakeFirstOrThrow()).id;

  /** A playlist whose segments are on the listener. */
  const playlist = () =>
    Buffer.from(`#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.0,\n${trap}/seg0.ts\n#EXTINF:4.0,\n${trap}/seg1.ts\n#EXT-X-ENDLIST\n`);

  beforeAll(async () => {
    hits = [];
    listener = createServer((request, response) => {
      hits.push(`${request.method} ${request.url}`);
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const address = listener.address();
    trap = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    tmp = await mkdtemp(join(tmpdir(), 'cutdesk-media-inputs-'));
    server = await startTestServer(url, { storage: true });
    api = apiOf(server);
    owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    runner = startRunner({ db: server.db, handlers: mediaHandlers(server.app.ctx, mediaTools()), pollMs: 20, retry: { baseDelayMs: 50, maxDelayMs: 100 } });
  });
  beforeEach(() => {
    hits = [];
  });
  afterAll(async () => {
    await runner?.stop();
    api?.close();
    await server?.close();
    await new Promise((resolve) => listener?.close(resolve));
    await rm(tmp, { recursive: true, force: true });
  });

  it.runIf(withFfmpeg)('the listener would see a plain ffprobe follow such a playlist (the trap works)', async () => {
    const key = 'tests/inputs/control.m3u8';
    await server.app.ctx.storage.putObject(key, playlist(), 'application/vnd.apple.mpegurl');
    await exec('ffprobe', ['-v', 'error', await server.app.ctx.storage.presignGet(key, 60)]).catch(() => undefined);
    expect(hits.length).toBeGreaterThan(0);
  });

  it('refuses an HLS playlist, an ffconcat list or a concat list named .mp4 at registration, with nothing fetched', async () => {
    const projectId = await api.createProject(owner);
    const lists = {
      'playlist.mp4': playlist(),
      'ffconcat.mp4': Buffer.from(`ffconcat version 1.0\nfile '${trap}/a.mp4'\nfile 'file:/etc/passwd'\n`),
      'concat.mov': Buffer.from(`file '${trap}/b.mp4'\nfile '/etc/hostname'\n`),
      'frames.mp4': Buffer.from(`${trap}/frame%03d.png\n`),
    };
    for (const [name, bytes] of Object.entries(lists)) {
      const { registered } = await api.uploadAndRegister(owner, projectId, 'InterviewClip', name, bytes, 'video/mp4');
      expect(registered.statusCode, name).toBe(415);
      expect(registered.json().message).toBe(FILE_MESSAGES.notVideo);
    }
    await runner.idle();
    expect(hits).toEqual([]);
  });

  it.runIf(withFfmpeg)('a playlist registered before the check fails its jobs in the pipeline, without a request', async () => {
    const projectId = await api.createProject(owner);
    const key = `projects/${projectId}/raw/interviews/old.mp4`;
    await server.app.ctx.storage.putObject(key, playlist(), 'video/mp4');
    const asset = await server.db
      .insertInto('assets')
      .values({ projectId, name: 'old.mp4', size: playlist().length, type: 'INTERVIEW_CLIP', path: key, previewPath: null, deletedAt: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    await enqueueAssetMedia(server.app.ctx, asset.id);
    await runner.idle();
    const { checksum, jobs } = splitJobs(await jobsOf(asset.id));
    expect(jobs.map((job) => job.status)).toEqual(['failed', 'failed']);
    expect(jobs[0]!.lastError).toContain('not a video container we process');
    // Its CRC-32 is still computed: bytes read from our own store, never interpreted.
    expect(checksum?.status).toBe('done');
    expect(hits).toEqual([]);
  });

  it.runIf(withFfmpeg)('ffprobe reads only the container it is told: a real playlist URL read as MP4 fetches nothing', async () => {
    const key = 'tests/inputs/forced.m3u8';
    await server.app.ctx.storage.putObject(key, playlist(), 'application/vnd.apple.mpegurl');
    const input = { url: await server.app.ctx.storage.presignGet(key, 60), demuxer: 'mov' as const };
    await expect(probe(mediaTools(), input)).rejects.toThrow();
    expect(hits).toEqual([]);
  });

  it.runIf(withFfmpeg)('a playlist behind an MP4 signature is registered but never followed; the error names no signed URL', async () => {
    const projectId = await api.createProject(owner);
    const polyglot = Buffer.concat([MP4_FTYP, playlist()]);
    const { key, registered } = await api.uploadAndRegister(owner, projectId, 'BRollClip', 'sneaky.mp4', polyglot, 'video/mp4');
    expect(registered.statusCode, registered.body).toBe(201);
    await runner.idle();
    const { checksum, jobs } = splitJobs(await jobsOf(await assetIdOf(key)));
    expect(checksum?.status).toBe('done');
    expect(jobs.map((job) => job.status)).toEqual(['failed', 'failed']);
    for (const job of jobs) {
      expect(job.lastError).toMatch(/not a video/);
      expect(job.lastError).not.toMatch(/X-Amz-(Signature|Credential|Security-Token)/i);
    }
    expect(hits).toEqual([]);
  });

  it.runIf(withFfmpeg)('real MP4 and Matroska clips still get their proxy and thumbnail', async () => {
    const projectId = await api.createProject(owner);
    const mp4 = await generateClip({ seconds: 1, width: 320, height: 180 });
    const mkvFile = join(tmp, 'take.mkv');
    await writeFile(join(tmp, 'take.mp4'), mp4);
    await exec('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', join(tmp, 'take.mp4'), '-c', 'copy', '-f', 'matroska', mkvFile]);
    const mkv = await readFile(mkvFile);
    for (const [name, bytes] of [
      ['talk.mp4', mp4],
      ['take.mkv', mkv],
    ] as const) {
      const { key, registered } = await api.uploadAndRegister(owner, projectId, 'InterviewClip', name, bytes, 'video/mp4');
      expect(registered.statusCode, registered.body).toBe(201);
      await runner.idle();
      const jobs = await jobsOf(await assetIdOf(key));
      expect(jobs.map((job) => `${job.kind}:${job.status}`).sort(), JSON.stringify(jobs)).toEqual([
        'asset.checksum:done',
        'asset.proxy:done',
        'asset.thumbnail:done',
      ]);
    }
    expect(hits).toEqual([]);
  });
});
