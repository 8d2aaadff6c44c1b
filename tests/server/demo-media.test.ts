import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommentList, Version } from '../../src/domain/contract/review.ts';
import { mediaTools, probe } from '../../server/media/ffmpeg.ts';
import { mediaHandlers } from '../../server/media/pipeline.ts';
import { DEMO_MEDIA_MESSAGES, makeDemoClip, seedDemoMedia, type DemoClipMaker } from '../../server/seed/demo-media.ts';
import { hasFfmpeg } from '../support/media.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from './harness.ts';

const withFfmpeg = await hasFfmpeg();

/**
 * The demo's clips, made by ffmpeg once for this file and copied for the second database: the
 * clips are the same whatever the database, and making them is most of this file's time.
 */
const clipsDir = mkdtemp(join(tmpdir(), 'cutdesk-demo-clips-'));
const made = new Map<string, Promise<string>>();
const makeClipOnce: DemoClipMaker = async (tools, project, version, file, withText) => {
  const key = JSON.stringify([project, version, withText]);
  if (!made.has(key)) {
    const name = `${made.size}.mp4`;
    made.set(
      key,
      (async () => {
        const kept = join(await clipsDir, name);
        await makeDemoClip(tools, project, version, kept, withText);
        return kept;
      })(),
    );
  }
  await copyFile(await made.get(key)!, file);
};
afterAll(async () => rm(await clipsDir, { recursive: true, force: true }));

function collectingLog() {
  const lines: string[] = [];
  return { lines, log: { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m) } };
}

/** Issue 13: the demo's projects in review and approved get real videos, versions and comments. */
describe.each(DATABASES)('demo review videos on $name', ({ url }) => {
  let server: TestServer;
  const idOf = async (name: string) => (await server.db.selectFrom('projects').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const get = async <T>(path: string, email: string) => {
    const response = await server.app.inject({ method: 'GET', url: `/api/v1${path}`, headers: await signIn(server.app, email) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  };

  beforeAll(async () => {
    server = await startTestServer(url, { storage: true });
  }, 60_000);
  afterAll(async () => server.close());

  it.skipIf(!withFfmpeg)(
    'makes versions, comments and videos once, and queues their media jobs',
    async () => {
      const { log } = collectingLog();
      const result = await seedDemoMedia(server.app.ctx, log, { makeClip: makeClipOnce });
      expect(result.skipped).toBeNull();
      expect([...result.seeded].sort()).toEqual(['Brand anthem', 'Conference recap', 'Quarterly highlights']);

      // Quarterly highlights: v01 came back with changes, v02 is in review; a customer sees both.
      const quarterly = await idOf('Quarterly highlights');
      const versions = await get<{ versions: Version[] }>(`/projects/${quarterly}/versions`, 'owner@demo.cutdesk.test');
      expect(versions.versions.map((v) => [v.number, v.current, v.frameRate, v.frameRateKnown, v.width, v.height])).toEqual([
        [1, false, { num: 25, den: 1 }, true, 1280, 720],
        [2, true, { num: 25, den: 1 }, true, 1280, 720],
      ]);
      expect(versions.versions[1]!.durationFrames).toBeGreaterThanOrEqual(8 * 25);
      expect(versions.versions[1]!.durationFrames).toBeLessThanOrEqual(12 * 25);
      const v1 = await get<CommentList>(`/projects/${quarterly}/comments?version=1`, 'owner@demo.cutdesk.test');
      expect(v1.comments).toHaveLength(3);
      expect(v1.comments.filter((c) => c.drawing !== null)).toHaveLength(1);
      expect(v1.comments.filter((c) => c.resolved).length).toBeGreaterThanOrEqual(1);
      expect(v1.comments.filter((c) => !c.resolved).length).toBeGreaterThanOrEqual(1);
      const replies = v1.comments.flatMap((c) => c.replies);
      expect(replies.map((r) => r.author.role)).toContain('EDITOR');
      expect(v1.comments.every((c) => c.frame < versions.versions[0]!.durationFrames!)).toBe(true);

      // Brand anthem at 29.97: drop-frame timecodes, the probed rate exact.
      const anthem = await idOf('Brand anthem');
      const anthemComments = await get<CommentList>(`/projects/${anthem}/comments?version=1`, 'admin@demo.cutdesk.test');
      expect(anthemComments.frameRate).toEqual({ num: 30000, den: 1001 });
      expect(anthemComments.comments[0]!.timecode).toContain(';');

      // The objects are in the store under each project's final-video prefix, and are what they claim.
      for (const name of ['Quarterly highlights', 'Brand anthem', 'Conference recap']) {
        const id = await idOf(name);
        const project = await server.db.selectFrom('projects').select(['finalVideoPath', 'noReviews', 'status']).where('id', '=', id).executeTakeFirstOrThrow();
        expect(project.finalVideoPath).toMatch(new RegExp(`^projects/${id}/final/`));
        const rows = await server.db.selectFrom('projectVersions').select(['videoPath', 'videoSize']).where('projectId', '=', id).execute();
        for (const row of rows) expect((await server.app.ctx.storage.headObject(row.videoPath))?.size, row.videoPath).toBe(row.videoSize);
        const jobs = await server.db.selectFrom('mediaJobs').select(['kind', 'sourceKey']).where('projectId', '=', id).execute();
        const kindsOf = (key: string) =>
          jobs
            .filter((j) => j.sourceKey === key)
            .map((j) => j.kind)
            .sort();
        // The current cut: everything a delivered final video gets.
        expect(kindsOf(project.finalVideoPath!)).toEqual(['final.hd', 'final.hls', 'final.lowres', 'final.preview', 'final.thumbnail']);
        // Each earlier cut: what plays it in the version switcher and the compare.
        const earlier = rows.map((row) => row.videoPath).filter((path) => path !== project.finalVideoPath);
        for (const path of earlier) expect(kindsOf(path), path).toEqual(['final.hls', 'final.preview', 'final.thumbnail']);
        expect(new Set(jobs.map((j) => j.sourceKey))).toEqual(new Set(rows.map((row) => row.videoPath)));
      }

      // v01 of Quarterly highlights plays for the owner once its preview job ran (not "being processed" for ever).
      const v1Path = (
        await server.db.selectFrom('projectVersions').select('videoPath').where('projectId', '=', quarterly).where('number', '=', 1).executeTakeFirstOrThrow()
      ).videoPath;
      const v1Preview = versions.versions[0]!.media!.preview;
      expect((await server.app.inject({ method: 'GET', url: v1Preview })).statusCode).toBe(503);
      const previewJob = await server.db
        .selectFrom('mediaJobs')
        .selectAll()
        .where('projectId', '=', quarterly)
        .where('sourceKey', '=', v1Path)
        .where('kind', '=', 'final.preview')
        .executeTakeFirstOrThrow();
      await mediaHandlers(server.app.ctx, mediaTools())['final.preview']({ job: previewJob, signal: new AbortController().signal });
      await server.db.updateTable('mediaJobs').set({ status: 'done' }).where('id', '=', previewJob.id).execute();
      const played = await server.app.inject({ method: 'GET', url: v1Preview });
      expect(played.statusCode, played.body).toBe(302);
      expect(played.headers.location).toMatch(/_v01_proxy\.mp4/);
      const anthemPath = (await server.db.selectFrom('projects').select('finalVideoPath').where('id', '=', anthem).executeTakeFirstOrThrow()).finalVideoPath!;
      const object = await server.app.ctx.storage.getObjectStream(anthemPath);
      const chunks: Buffer[] = [];
      for await (const chunk of object!.body) chunks.push(chunk as Buffer);
      const file = join(server.dataDir, 'anthem.mp4');
      await writeFile(file, Buffer.concat(chunks));
      const probed = await probe(mediaTools(), { url: file, demuxer: 'mov' });
      expect(probed).toMatchObject({ frameRate: { real: '30000/1001' }, width: 1280, height: 720, audioCodec: 'aac' });

      // Run again (a restart): nothing is duplicated.
      const counts = async () => ({
        versions: Number(
          (
            await server.db
              .selectFrom('projectVersions')
              .select((eb) => eb.fn.countAll<string>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ),
        comments: Number(
          (
            await server.db
              .selectFrom('reviewComments')
              .select((eb) => eb.fn.countAll<string>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ),
        jobs: Number(
          (
            await server.db
              .selectFrom('mediaJobs')
              .select((eb) => eb.fn.countAll<string>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ),
      });
      const before = await counts();
      expect(await seedDemoMedia(server.app.ctx, log, { makeClip: makeClipOnce })).toEqual({ seeded: [], skipped: null });
      expect(await counts()).toEqual(before);
    },
    120_000,
  );
});

describe('demo review videos without ffmpeg', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(null, { storage: true });
  }, 60_000);
  afterAll(async () => server.close());

  it('says so in one line and leaves the demo as it was', async () => {
    // The worker's own seam (server/media/ffmpeg.ts mediaTools): binaries that are not there.
    const tools = mediaTools({ FFMPEG_PATH: join(server.dataDir, 'no-ffmpeg'), FFPROBE_PATH: join(server.dataDir, 'no-ffprobe') });
    const { lines, log } = collectingLog();
    expect(await seedDemoMedia(server.app.ctx, log, { tools })).toEqual({ seeded: [], skipped: 'ffmpeg-missing' });
    expect(lines).toEqual([DEMO_MEDIA_MESSAGES.ffmpegMissing]);
    expect(await server.db.selectFrom('projectVersions').selectAll().execute()).toEqual([]);
    expect(await server.db.selectFrom('reviewComments').selectAll().execute()).toEqual([]);
    expect(await server.db.selectFrom('mediaJobs').selectAll().execute()).toEqual([]);
    const inReview = await server.db.selectFrom('projects').select(['status', 'finalVideoPath']).where('status', 'in', ['IN_REVIEW', 'APPROVED']).execute();
    expect(inReview.length).toBeGreaterThan(0);
    expect(inReview.every((p) => p.finalVideoPath === null)).toBe(true);
  });
});
