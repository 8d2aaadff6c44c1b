import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Project } from '../../src/domain/contract/projects.ts';
import { fingerprintPrefix, fingerprintRanges } from '../../src/domain/fingerprint.ts';
import { derivedKey } from '../../src/domain/media.ts';
import { RULE_MESSAGES } from '../../src/domain/project-rules.ts';
import { mediaTools } from '../../server/media/ffmpeg.ts';
import { signMediaToken, verifyMediaToken } from '../../server/media/media-links.ts';
import { ALL_KINDS, CHECKSUM_KIND, enqueueAssetMedia, mediaHandlers, runnableKinds } from '../../server/media/pipeline.ts';
import { startRunner, type Runner } from '../../server/media/runner.ts';
import { uploadsRefuseOverwrites } from '../../server/storage/upload-credentials.ts';
import { MP4_FTYP } from '../support/file-fixtures.ts';
import { decodesCleanly, ffprobe, generateClip, hasFfmpeg } from '../support/media.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from './harness.ts';

/** Tests that wait for real ffmpeg work (a clip's jobs) on a machine whose cores other suites share: waited for, not timed. */
const TRANSCODING_TIMEOUT_MS = 180_000;

type Headers = { authorization: string };
const SECONDS = 3;
const withFfmpeg = await hasFfmpeg();

describe('media tokens', () => {
  it('verify their signature and expiry, and stay the same within an hour', () => {
    const now = Date.UTC(2026, 10, 21, 10, 5);
    const session = { userId: 3, sessionVersion: 0, impersonatorId: null, impersonatorSessionVersion: null };
    const token = signMediaToken('secret-secret-secret-secret-secret', 7, session, now);
    expect(signMediaToken('secret-secret-secret-secret-secret', 7, session, now + 20 * 60_000)).toBe(token);
    expect(verifyMediaToken('secret-secret-secret-secret-secret', token, now)).toMatchObject({ projectId: 7, userId: 3 });
    expect(verifyMediaToken('another-secret-another-secret-xx', token, now)).toBeNull();
    expect(verifyMediaToken('secret-secret-secret-secret-secret', token.replace(/^7\./, '8.'), now)).toBeNull();
    expect(verifyMediaToken('secret-secret-secret-secret-secret', token, now + 14 * 3_600_000)).toBe('expired');
  });
});

describe('which media jobs run', () => {
  it('checksums run without ffmpeg; everything else waits for it', () => {
    expect(runnableKinds(false)).toEqual([CHECKSUM_KIND]);
    expect(runnableKinds(true)).toEqual(ALL_KINDS);
  });

  it('a CRC is recorded only where uploads can never replace a registered object', () => {
    const store = (mode: 'embedded' | 'external', uploadCredentials: 'sts' | 'database', endpoint: string | null) => ({ mode, uploadCredentials, endpoint });
    expect(uploadsRefuseOverwrites(store('embedded', 'database', null))).toBe(true);
    expect(uploadsRefuseOverwrites(store('external', 'database', 'http://cutdesk-a.internal:9000'))).toBe(true);
    expect(uploadsRefuseOverwrites(store('external', 'sts', 'https://s3.eu-west-1.amazonaws.com'))).toBe(true);
    // MinIO, R2, Ceph: the session policy has no conditional write to hold on to.
    expect(uploadsRefuseOverwrites(store('external', 'sts', 'https://minio.example.com'))).toBe(false);
  });
});

describe.each(DATABASES)('final video and clip media on $name', ({ url }) => {
  let server: TestServer;
  let admin: Headers;
  let editor: Headers;
  let owner: Headers;
  let outsider: Headers;
  let runner: Runner;
  let projectId: number;
  let openedId: number;
  let source: Buffer;
  let tmp: string;

  const api = (method: string, path: string, headers: Partial<Headers> = {}, body?: unknown) =>
    fetch(`${server.baseUrl}/api/v1${path}`, {
      method,
      redirect: 'manual',
      headers: { ...headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  const project = async (headers: Headers = admin) => (await (await api('GET', `/projects/${projectId}`, headers)).json()) as Project;
  const idOf = async (name: string) => (await server.db.selectFrom('projects').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const abs = (path: string) => new URL(path, server.baseUrl!).toString();

  beforeAll(async () => {
    server = await startTestServer(url, { storage: true });
    admin = await signIn(server.app, 'admin@demo.cutdesk.test');
    editor = await signIn(server.app, 'editor@demo.cutdesk.test');
    owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    outsider = await signIn(server.app, 'nina@northwind.demo.cutdesk.test');
    projectId = await idOf('Product walkthrough');
    openedId = await idOf('Spring launch teaser');
    tmp = await mkdtemp(join(tmpdir(), 'cutdesk-media-test-'));
    // Without ffmpeg the source is still an MP4 by its signature (registration checks it), just not a playable one.
    source = withFfmpeg ? await generateClip({ seconds: SECONDS, width: 1280, height: 720 }) : Buffer.concat([MP4_FTYP, Buffer.from('not a video')]);
    await server.app.ctx.storage.putObject(`projects/${projectId}/final/cut-v1.mp4`, source, 'video/mp4');
    await server.app.ctx.storage.putObject(`projects/${openedId}/final/early.mp4`, source, 'video/mp4');
  });
  afterAll(async () => {
    await runner?.stop();
    await server?.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it('POST deliverable: staff but editors, allowed statuses, objects under the final-video folder only', async () => {
    const body = { path: `projects/${projectId}/final`, name: 'cut-v1.mp4' };
    expect((await api('POST', `/projects/${projectId}/deliverable`, editor, body)).status).toBe(403);
    expect((await api('POST', `/projects/${projectId}/deliverable`, owner, body)).status).toBe(403);
    expect((await api('POST', `/projects/${projectId}/deliverable`, outsider, body)).status).toBe(404);
    expect((await api('POST', `/projects/${projectId}/deliverable`, {}, body)).status).toBe(401);
    expect((await api('POST', `/projects/${openedId}/deliverable`, admin, { path: `projects/${openedId}/final`, name: 'early.mp4' })).status).toBe(409);
    expect((await api('POST', `/projects/${projectId}/deliverable`, admin, { path: `projects/${openedId}/final`, name: 'early.mp4' })).status).toBe(400);
    expect((await api('POST', `/projects/${projectId}/deliverable`, admin, { path: `projects/${projectId}/raw/interviews`, name: 'x.mp4' })).status).toBe(400);
    expect((await api('POST', `/projects/${projectId}/deliverable`, admin, { path: `projects/${projectId}/final/../raw`, name: 'x.mp4' })).status).toBe(400);
    const missing = await api('POST', `/projects/${projectId}/deliverable`, admin, { path: `projects/${projectId}/final`, name: 'nope.mp4' });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { message: string }).message).toMatch(/not found in storage/);

    const response = await api('POST', `/projects/${projectId}/deliverable`, admin, body);
    expect(response.status).toBe(200);
    const registered = (await response.json()) as Project;
    expect(registered.finalVideoPath).toBe(`projects/${projectId}/final/cut-v1.mp4`);
    expect(registered.finalVideoSize).toBe(source.length);
    expect(registered.finalVideoPreview).toMatch(new RegExp(`^/api/v1/media/${projectId}\\.\\d+\\.\\d+\\.[0-9a-z]+\\.[A-Za-z0-9_-]{32}/preview\\.mp4$`));
    expect(registered.hdUrl).toBeNull();
    expect(registered.lowResUrl).toBeNull();
    const jobs = await server.db.selectFrom('mediaJobs').select(['kind', 'status']).where('projectId', '=', projectId).execute();
    expect(jobs.map((j) => j.kind).sort()).toEqual(['final.hd', 'final.hls', 'final.lowres', 'final.preview', 'final.thumbnail']);
  });

  it('while the media is processed the link answers 503 (being processed); send to review waits for the preview (issue 36)', async () => {
    // Issue 9: during editing the version is staff's; the customer sees it from review on.
    expect((await project(owner)).finalVideoPreview).toBeNull();
    const current = await project();
    const check = await fetch(abs(current.finalVideoPreview!), { headers: { range: 'bytes=0-0' }, redirect: 'manual' });
    expect(check.status).toBe(503);
    expect(check.headers.get('retry-after')).toBe('5');
    expect(((await check.json()) as { message: string }).message).toBe('The video is being processed. It will be ready in a few minutes.');
    expect(current.finalPreviewState).toBe('processing');
    const early = await api('POST', `/projects/${projectId}/submit`, admin);
    expect(early.status).toBe(409);
    expect(((await early.json()) as { message: string }).message).toBe(RULE_MESSAGES.previewProcessing);
    // The media worker of this test server starts now (the server started without one).
    runner = startRunner({ db: server.db, handlers: mediaHandlers(server.app.ctx, mediaTools()), pollMs: 20, retry: { baseDelayMs: 50, maxDelayMs: 100 } });
    const staffJobs = await api('GET', `/projects/${projectId}/media-jobs`, admin);
    expect(staffJobs.status).toBe(200);
    expect((await api('GET', `/projects/${projectId}/media-jobs`, owner)).status).toBe(403);
  });

  it.runIf(withFfmpeg)(
    'makes a playable thumbnail, preview, HLS and HD/low-res downloads whose duration matches the source',
    async () => {
      await runner.idle();
      const jobs = await server.db.selectFrom('mediaJobs').select(['kind', 'status', 'lastError']).where('projectId', '=', projectId).execute();
      expect(
        jobs.filter((j) => j.status !== 'done'),
        JSON.stringify(jobs),
      ).toEqual([]);

      // Still IN_EDITING: staff's view (issue 9: customers see the version from review on).
      const current = await project();
      expect(current.finalVideoThumbnail).toMatch(/\/thumbnail\.jpg$/);
      expect(current.hdUrl).toMatch(/\/hd\.mp4$/);
      expect(current.lowResUrl).toMatch(/\/low-res\.mp4$/);

      // Availability check: GET with Range bytes=0-0 through the redirect.
      const ranged = await fetch(abs(current.finalVideoPreview!), { headers: { range: 'bytes=0-0' } });
      expect(ranged.status).toBe(206);
      expect((await ranged.arrayBuffer()).byteLength).toBe(1);

      const thumb = await fetch(abs(current.finalVideoThumbnail!));
      expect(thumb.headers.get('content-type')).toBe('image/jpeg');
      expect(Buffer.from(await thumb.arrayBuffer()).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));

      for (const [link, maxHeight] of [
        [current.finalVideoPreview!, 540],
        [current.lowResUrl!, 720],
        [current.hdUrl!, 1080],
      ] as const) {
        const response = await fetch(abs(link));
        expect(response.status).toBe(200);
        const file = join(tmp, `out-${maxHeight}.mp4`);
        await writeFile(file, Buffer.from(await response.arrayBuffer()));
        const info = await ffprobe(file);
        expect(info.videoCodec).toBe('h264');
        expect(info.audioCodec).toBe('aac');
        expect(info.height).toBeLessThanOrEqual(maxHeight);
        expect(Math.abs(info.duration - SECONDS)).toBeLessThan(0.25);
        await decodesCleanly(file);
      }
      const hd = await fetch(abs(current.hdUrl!), { redirect: 'manual' });
      expect(decodeURIComponent(hd.headers.get('location')!)).toContain('attachment; filename="Product_walkthrough_HD.mp4"');

      // The stream: the master playlist names variants through the app, their segments presigned.
      const streamUrl = abs(current.finalVideoPreview!.replace(/preview\.mp4$/, 'stream.m3u8'));
      const master = await (await fetch(streamUrl)).text();
      expect(master).toContain('#EXT-X-STREAM-INF');
      expect(master).toContain('stream/v0/playlist.m3u8');
      const variant = await (await fetch(new URL('stream/v0/playlist.m3u8', streamUrl))).text();
      expect(variant).toMatch(/X-Amz-Signature=/);
      const hls = await ffprobe(streamUrl);
      expect(hls.videoCodec).toBe('h264');
      expect(hls.height).toBe(720);
      expect(Math.abs(hls.duration - SECONDS)).toBeLessThan(0.3);
      await decodesCleanly(streamUrl);

      expect((await api('POST', `/projects/${projectId}/submit`, admin)).status).toBe(200);

      // A preview that went missing from storage: 404, which the apps show as "no media".
      const previewKey = derivedKey(`projects/${projectId}/final/cut-v1.mp4`, 'proxy');
      const kept = await server.app.ctx.storage.getObjectStream(previewKey);
      const bytes = Buffer.concat(await kept!.body.toArray());
      await server.app.ctx.storage.deleteObject(previewKey);
      expect((await fetch(abs(current.finalVideoPreview!), { headers: { range: 'bytes=0-0' }, redirect: 'manual' })).status).toBe(404);
      await server.app.ctx.storage.putObject(previewKey, bytes, 'video/mp4');
    },
    TRANSCODING_TIMEOUT_MS,
  );

  it('media links follow who may see the project now; forged ones are refused', async () => {
    // The customer holds media links once the version is sent to review (issue 9); without
    // ffmpeg the test above that sends it did not run.
    await server.db
      .updateTable('projects')
      .set({ status: 'IN_REVIEW', reviewStartedAt: new Date() })
      .where('id', '=', projectId)
      .where('status', '=', 'IN_EDITING')
      .execute();
    const current = await project(owner);
    const link = abs(current.finalVideoThumbnail ?? current.finalVideoPreview!);
    expect((await fetch(link.replace(/\.([A-Za-z0-9_-]{32})\//, '.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/'), { redirect: 'manual' })).status).toBe(404);
    expect((await fetch(link.replace(new RegExp(`/media/${projectId}\\.`), `/media/${openedId}.`), { redirect: 'manual' })).status).toBe(404);
    await server.db.updateTable('users').set({ isEnabled: false }).where('email', '=', 'owner@demo.cutdesk.test').execute();
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(404);
    await server.db.updateTable('users').set({ isEnabled: true }).where('email', '=', 'owner@demo.cutdesk.test').execute();
    expect((await fetch(link, { redirect: 'manual' })).status).not.toBe(404);
  });

  it('POST links: original and _proxy.mp4 for those who may see the project, 404 for another organization', async () => {
    const original = await api('POST', `/projects/${projectId}/links`, owner, { name: 'cut-v1.mp4', uploadType: 'deliverable', operationName: 'download' });
    expect(original.status).toBe(200);
    const { link, name } = (await original.json()) as { link: string; name: string };
    expect(name).toBe('cut-v1.mp4');
    expect(Buffer.from(await (await fetch(link)).arrayBuffer()).equals(source)).toBe(true);
    expect((await api('POST', `/projects/${projectId}/links`, outsider, { name: 'cut-v1.mp4', uploadType: 'deliverable' })).status).toBe(404);
    expect((await api('POST', `/projects/${projectId}/links`, {}, { name: 'cut-v1.mp4' })).status).toBe(401);
    expect((await api('POST', `/projects/${projectId}/links`, admin, { name: 'unknown.mp4' })).status).toBe(404);
    if (withFfmpeg) {
      const proxy = await api('POST', `/projects/${projectId}/links`, editor, {
        name: 'cut-v1_proxy.mp4',
        uploadType: 'deliverable',
        operationName: 'download',
      });
      expect(proxy.status).toBe(200);
      const body = (await proxy.json()) as { link: string };
      expect(new URL(body.link).pathname).toContain(encodeURI(derivedKey(`projects/${projectId}/final/cut-v1.mp4`, 'proxy')).replace(/^/, ''));
    }
  });

  it.runIf(withFfmpeg)(
    'every registered clip gets a _proxy.mp4 and a thumbnail; the archive flags follow',
    async () => {
      const clip = await generateClip({ seconds: 2, width: 640, height: 360, codec: 'mpeg4' });
      const key = `projects/${projectId}/raw/interviews/talk.mov`;
      await server.app.ctx.storage.putObject(key, clip, 'video/quicktime');
      const asset = await server.db
        .insertInto('assets')
        .values({ projectId, name: 'talk.mov', size: clip.length, type: 'INTERVIEW_CLIP', path: key, previewPath: null, deletedAt: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      const image = `projects/${projectId}/raw/assets/logo.png`;
      await server.app.ctx.storage.putObject(image, Buffer.from('png'), 'image/png');
      const logo = await server.db
        .insertInto('assets')
        .values({ projectId, name: 'logo.png', size: 3, type: 'ASSET', path: image, previewPath: null, deletedAt: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect((await project()).hasLowResArchive).toBe(0);
      expect((await project()).hasHdArchive).toBe(1);

      // Registered with a size its object does not have: no checksum is recorded for it.
      const wrongKey = `projects/${projectId}/raw/b_roll/wrong.mov`;
      await server.app.ctx.storage.putObject(wrongKey, clip, 'video/quicktime');
      const wrong = await server.db
        .insertInto('assets')
        .values({ projectId, name: 'wrong.mov', size: clip.length + 1, type: 'BROLL_CLIP', path: wrongKey, previewPath: null, deletedAt: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      // A duplicated project's row of the same object.
      const copy = await server.db
        .insertInto('assets')
        .values({ projectId: openedId, name: 'talk.mov', size: clip.length, type: 'INTERVIEW_CLIP', path: key, previewPath: null, deletedAt: null })
        .returning('id')
        .executeTakeFirstOrThrow();

      await enqueueAssetMedia(server.app.ctx, asset.id);
      await enqueueAssetMedia(server.app.ctx, asset.id);
      await enqueueAssetMedia(server.app.ctx, logo.id);
      await enqueueAssetMedia(server.app.ctx, wrong.id);
      expect((await server.db.selectFrom('mediaJobs').select('kind').where('assetId', '=', asset.id).orderBy('kind').execute()).map((job) => job.kind)).toEqual(
        ['asset.checksum', 'asset.proxy', 'asset.thumbnail'],
      );
      // An image is its own proxy: only its checksum is computed.
      expect((await server.db.selectFrom('mediaJobs').select('kind').where('assetId', '=', logo.id).execute()).map((job) => job.kind)).toEqual([
        'asset.checksum',
      ]);
      await runner.idle();
      const row = await server.db.selectFrom('assets').selectAll().where('id', '=', asset.id).executeTakeFirstOrThrow();
      expect(row.previewPath).toBe(`projects/${projectId}/media/raw/interviews/talk_proxy.mp4`);
      expect((await project()).hasLowResArchive).toBe(1);
      // Each original's CRC-32, for zips made on the user's device, in the assets they list.
      const listed = (await (await api('GET', `/projects/${projectId}/assets`, admin)).json()) as { id: number; crc32: number | null }[];
      expect(listed.find((item) => item.id === asset.id)?.crc32).toBe(crc32(clip));
      expect(listed.find((item) => item.id === logo.id)?.crc32).toBe(crc32(Buffer.from('png')));
      expect(listed.find((item) => item.id === wrong.id)?.crc32).toBeNull();
      // The object's one read serves every row of it.
      expect((await server.db.selectFrom('assets').select('crc32').where('id', '=', copy.id).executeTakeFirstOrThrow()).crc32).toBe(crc32(clip));
      // Issue 35: and the fingerprint an upload of the same file is matched by, read in the same pass.
      const fingerprintOf = (bytes: Buffer) => {
        const hash = createHash('sha256').update(fingerprintPrefix(bytes.length));
        for (const range of fingerprintRanges(bytes.length)) hash.update(bytes.subarray(range.start, range.end));
        return hash.digest('hex');
      };
      const fingerprints = await server.db
        .selectFrom('assets')
        .select(['id', 'fingerprint'])
        .where('id', 'in', [asset.id, logo.id, wrong.id, copy.id])
        .execute();
      expect(Object.fromEntries(fingerprints.map((f) => [f.id, f.fingerprint]))).toEqual({
        [asset.id]: fingerprintOf(clip),
        [logo.id]: fingerprintOf(Buffer.from('png')),
        [wrong.id]: null,
        [copy.id]: fingerprintOf(clip),
      });

      const link = (await (await api('POST', `/projects/${projectId}/links`, admin, { assetId: asset.id, variant: 'proxy' })).json()) as {
        link: string;
        name: string;
      };
      expect(link.name).toBe('talk_proxy.mp4');
      const file = join(tmp, 'talk_proxy.mp4');
      await writeFile(file, Buffer.from(await (await fetch(link.link)).arrayBuffer()));
      const info = await ffprobe(file);
      expect(info.videoCodec).toBe('h264');
      expect(Math.abs(info.duration - 2)).toBeLessThan(0.25);
      expect(await server.app.ctx.storage.headObject(`projects/${projectId}/media/raw/interviews/talk_thumb.jpg`)).not.toBeNull();
      // Spec form: the proxy by its _proxy.mp4 name with upload type deliverable.
      const byName = await api('POST', `/projects/${projectId}/links`, admin, { name: 'talk_proxy.mp4', type: 'InterviewClip', uploadType: 'deliverable' });
      expect(byName.status).toBe(200);
    },
    TRANSCODING_TIMEOUT_MS,
  );

  it("runs a record's media work after the record is deleted while another record holds its object (a stored copy reused, issue 35)", async () => {
    const key = `projects/${projectId}/raw/assets/shared-logo.png`;
    const bytes = Buffer.from('shared png bytes');
    await server.app.ctx.storage.putObject(key, bytes, 'image/png');
    const row = (name: string, id: number) => ({
      projectId: id,
      name,
      size: bytes.length,
      type: 'ASSET' as const,
      path: key,
      previewPath: null,
      deletedAt: null,
    });
    const first = await server.db.insertInto('assets').values(row('first.png', projectId)).returning('id').executeTakeFirstOrThrow();
    const reused = await server.db.insertInto('assets').values(row('reused.png', openedId)).returning('id').executeTakeFirstOrThrow();
    await enqueueAssetMedia(server.app.ctx, first.id);
    await server.db.updateTable('assets').set({ deletedAt: new Date() }).where('id', '=', first.id).execute();
    // This file's runner may be running (started by an earlier test): whichever claims the job, the row tells.
    const own = startRunner({ db: server.db, handlers: mediaHandlers(server.app.ctx, mediaTools()), runnableKinds: () => [CHECKSUM_KIND], pollMs: 20 });
    const after = () => server.db.selectFrom('assets').select(['crc32', 'fingerprint']).where('id', '=', reused.id).executeTakeFirstOrThrow();
    try {
      await expect.poll(async () => (await after()).crc32, { timeout: 20_000 }).toBe(crc32(bytes));
    } finally {
      await own.stop();
    }
    expect((await after()).fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it(
    'a source that is not a video fails its jobs with the error, visible to staff',
    async () => {
      // An MP4 signature (registration takes it) in front of bytes no demuxer can read.
      await server.app.ctx.storage.putObject(
        `projects/${projectId}/final/broken.mp4`,
        Buffer.concat([MP4_FTYP, Buffer.from('this is not a video at all')]),
        'video/mp4',
      );
      expect(
        (await api('POST', `/projects/${projectId}/deliverable`, admin, { path: `projects/${projectId}/final/broken.mp4`, name: 'broken.mp4' })).status,
      ).toBe(200);
      if (!withFfmpeg) return;
      await runner.idle();
      const body = (await (await api('GET', `/projects/${projectId}/media-jobs`, admin)).json()) as {
        data: { jobs: { kind: string; status: string; lastError: string | null }[] };
      };
      const failed = body.data.jobs.filter((job) => job.status === 'failed');
      expect(failed.map((job) => job.kind).sort()).toEqual(['final.hd', 'final.hls', 'final.lowres', 'final.preview', 'final.thumbnail']);
      expect(failed[0]!.lastError).toMatch(/not a video/);
      const current = await project(owner);
      const check = await fetch(abs(current.finalVideoPreview!), { headers: { range: 'bytes=0-0' }, redirect: 'manual' });
      expect(check.status).toBe(404);
      // The earlier version's work was not redone; its outputs stay, the project shows the new one.
      expect(current.hdUrl).toBeNull();
      await sql`select 1`.execute(server.db);
    },
    TRANSCODING_TIMEOUT_MS,
  );
});
