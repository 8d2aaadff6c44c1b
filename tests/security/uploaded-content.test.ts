import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_MESSAGES } from '../../src/domain/file-signature.ts';
import { mp4Bytes, pngBytes } from '../support/file-fixtures.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from '../server/harness.ts';
import { apiOf, usedSpaceOf, type Headers } from './content-support.ts';

/**
 * Issue 9, "Uploaded files run as our own pages": what may be registered is decided from the
 * file's bytes, and the embedded store (the app's own origin) never serves an object as an
 * active type, whatever type the uploader stored.
 */

const PAGE = Buffer.from(
  '<!doctype html><html><body><script>fetch("/api/v1/me",{headers:{authorization:"Bearer "+localStorage.token}})</script></body></html>',
);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.domain)"><rect width="1" height="1"/></svg>');

describe.each(DATABASES)('uploaded content on $name', ({ url }) => {
  let server: TestServer;
  let api: ReturnType<typeof apiOf>;
  let owner: Headers;
  let admin: Headers;
  let s3: S3Client;

  /** The server's own S3 client (full rights), for what only a signed request can ask. */
  const bucket = () => server.config.storage.bucket;

  beforeAll(async () => {
    server = await startTestServer(url, { storage: true });
    api = apiOf(server);
    owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    admin = await signIn(server.app, 'admin@demo.cutdesk.test');
    const storage = server.config.storage;
    s3 = new S3Client({
      endpoint: `${server.baseUrl}/s3`,
      region: storage.region,
      forcePathStyle: true,
      credentials: { accessKeyId: storage.accessKeyId, secretAccessKey: storage.secretAccessKey },
      maxAttempts: 1,
    });
  });
  afterAll(async () => {
    s3?.destroy();
    api?.close();
    await server?.close();
  });

  describe('registration decides from the bytes', () => {
    it('refuses an HTML page or an SVG sent as an image (415, C§5 message) and removes it from the store', async () => {
      const projectId = await api.createProject(owner);
      const before = await usedSpaceOf(server);
      for (const [name, bytes, type] of [
        ['logo.png', PAGE, 'text/html'],
        ['logo.png', PAGE, 'image/png'],
        ['badge.svg', SVG, 'image/svg+xml'],
        ['badge.png', SVG, 'image/png'],
      ] as const) {
        const { key, registered } = await api.uploadAndRegister(owner, projectId, 'Asset', name, bytes, type);
        expect(registered.statusCode, `${name} as ${type}`).toBe(415);
        expect(registered.json()).toEqual({ message: FILE_MESSAGES.notImage, fields: { path: FILE_MESSAGES.notImage } });
        expect(await server.app.ctx.storage.headObject(key)).toBeNull();
      }
      expect(await usedSpaceOf(server)).toBe(before);
      expect((await api.call('GET', `/projects/${projectId}/assets`, owner)).json()).toEqual([]);
    });

    it('refuses a page, a playlist or a list of files as a clip, and an empty file', async () => {
      const projectId = await api.createProject(owner);
      const playlist = Buffer.from('#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nhttp://127.0.0.1:9/seg0.ts\n#EXT-X-ENDLIST\n');
      const concat = Buffer.from("ffconcat version 1.0\nfile 'file:/etc/passwd'\n");
      for (const [name, bytes] of [
        ['page.mp4', PAGE],
        ['list.mp4', playlist],
        ['concat.mov', concat],
        ['image.mp4', pngBytes()],
      ] as const) {
        const { key, registered } = await api.uploadAndRegister(owner, projectId, 'InterviewClip', name, bytes, 'video/mp4');
        expect(registered.statusCode, name).toBe(415);
        expect(registered.json().message).toBe(FILE_MESSAGES.notVideo);
        expect(await server.app.ctx.storage.headObject(key)).toBeNull();
      }
      const empty = await api.uploadAndRegister(owner, projectId, 'BRollClip', 'empty.mp4', Buffer.alloc(0), 'video/mp4');
      expect(empty.registered.statusCode).toBe(415);
      expect(empty.registered.json().message).toBe(FILE_MESSAGES.empty);
    });

    it('takes a real image or video whatever type the browser declared, and the name can be used again after a refusal', async () => {
      const projectId = await api.createProject(owner);
      const refused = await api.uploadAndRegister(owner, projectId, 'Asset', 'logo.png', PAGE, 'image/png');
      expect(refused.registered.statusCode).toBe(415);
      // The reservation went with the refused object: the real logo gets the same name.
      const image = await api.uploadAndRegister(owner, projectId, 'Asset', 'logo.png', pngBytes(), 'text/html');
      expect(image.registered.statusCode, image.registered.body).toBe(201);
      expect(image.key).toBe(refused.key);
      const clip = await api.uploadAndRegister(owner, projectId, 'InterviewClip', 'talk.mp4', mp4Bytes(2048), 'application/octet-stream');
      expect(clip.registered.statusCode, clip.registered.body).toBe(201);
    });

    it('the final video too: staff register only a video container', async () => {
      const projectId = await api.createProject(owner);
      await server.db.updateTable('projects').set({ status: 'IN_EDITING' }).where('id', '=', projectId).execute();
      const register = (name: string) => api.call('POST', `/projects/${projectId}/deliverable`, admin, { path: `projects/${projectId}/final`, name });
      await server.app.ctx.storage.putObject(`projects/${projectId}/final/cut.mp4`, PAGE, 'text/html');
      await server.app.ctx.storage.putObject(
        `projects/${projectId}/final/cut.m3u8`,
        Buffer.from('#EXTM3U\n#EXTINF:4,\nhttp://127.0.0.1:9/a.ts\n'),
        'video/mp4',
      );
      for (const name of ['cut.mp4', 'cut.m3u8']) {
        const refused = await register(name);
        expect(refused.statusCode, name).toBe(415);
        expect(refused.json().message).toBe(FILE_MESSAGES.notVideo);
      }
      expect((await server.db.selectFrom('projects').select('finalVideoPath').where('id', '=', projectId).executeTakeFirstOrThrow()).finalVideoPath).toBeNull();
      await server.app.ctx.storage.putObject(`projects/${projectId}/final/real.mp4`, mp4Bytes(4096), 'video/mp4');
      expect((await register('real.mp4')).statusCode).toBe(200);
    });
  });

  describe('the embedded store never serves an active type', () => {
    const expectInert = (headers: globalThis.Headers) => {
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      expect(headers.get('content-security-policy')).toBe('sandbox');
    };

    it('answers an object stored as HTML or SVG as an opaque attachment, even when a signed URL asks for text/html inline', async () => {
      for (const [key, body, type] of [
        ['tests/served/page.html', PAGE, 'text/html; charset=utf-8'],
        ['tests/served/badge.svg', SVG, 'image/svg+xml'],
        ['tests/served/x.js', Buffer.from('alert(1)'), 'application/javascript'],
      ] as const) {
        await s3.send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: body, ContentType: type, ContentDisposition: 'inline' }));
        const forced = await getSignedUrl(
          s3,
          new GetObjectCommand({ Bucket: bucket(), Key: key, ResponseContentType: 'text/html', ResponseContentDisposition: 'inline' }),
          { expiresIn: 60 },
        );
        for (const link of [forced, await server.app.ctx.storage.presignGet(key, 60)]) {
          const answer = await fetch(link);
          expect(answer.status).toBe(200);
          expect(answer.headers.get('content-type'), key).toBe('application/octet-stream');
          expect(answer.headers.get('content-disposition'), key).toMatch(/^attachment/);
          expectInert(answer.headers);
          await answer.arrayBuffer();
        }
        const head = await s3.send(new HeadObjectCommand({ Bucket: bucket(), Key: key }));
        expect(head.ContentType).toBe('application/octet-stream');
        expect(head.ContentDisposition).toMatch(/^attachment/);
      }
    });

    it('shows player media in place, and still with nosniff and a sandbox; errors carry them too', async () => {
      await server.app.ctx.storage.putObject('tests/served/clip.mp4', mp4Bytes(100), 'video/mp4');
      const answer = await fetch(await server.app.ctx.storage.presignGet('tests/served/clip.mp4', 60));
      expect(answer.headers.get('content-type')).toBe('video/mp4');
      expect(answer.headers.get('content-disposition')).toBe('inline');
      expectInert(answer.headers);
      await answer.arrayBuffer();
      const missing = await fetch(await server.app.ctx.storage.presignGet('tests/served/none.html', 60));
      expect(missing.status).toBe(404);
      expectInert(missing.headers);
      await missing.arrayBuffer();
    });

    it('presigned asset URLs name a passive type and the disposition (for a separate S3 endpoint too)', async () => {
      const projectId = await api.createProject(owner);
      expect((await api.uploadAndRegister(owner, projectId, 'Asset', 'logo.png', pngBytes(), 'text/html')).registered.statusCode).toBe(201);
      expect((await api.uploadAndRegister(owner, projectId, 'BRollClip', 'take.mov', mp4Bytes(512), 'text/html')).registered.statusCode).toBe(201);
      const assets = (await api.call('GET', `/projects/${projectId}/assets`, owner)).json<Array<{ name: string; url: string }>>();
      const byName = new Map(assets.map((asset) => [asset.name, new URL(asset.url)]));
      expect(byName.get('logo.png')!.searchParams.get('response-content-type')).toBe('image/png');
      expect(byName.get('logo.png')!.searchParams.get('response-content-disposition')).toBe('inline');
      expect(byName.get('take.mov')!.searchParams.get('response-content-type')).toBe('video/quicktime');
      expect(byName.get('take.mov')!.searchParams.get('response-content-disposition')).toMatch(/^attachment; filename="take\.mov"/);
      const logo = await fetch(byName.get('logo.png')!);
      expect(logo.headers.get('content-type')).toBe('image/png');
      expectInert(logo.headers);
      await logo.arrayBuffer();
    });
  });
});
