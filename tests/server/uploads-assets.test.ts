import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FOLDER_LENGTH } from '../../src/domain/camera-card.ts';
import { fingerprintPrefix, fingerprintRanges } from '../../src/domain/fingerprint.ts';
import { assetsRepo } from '../../server/repositories/assets.ts';
import { NO_MEMORY_CODE } from '../../src/domain/contract/uploads.ts';
import { BYTES_PER_TB } from '../../src/domain/constants.ts';
import { QUOTA_TOLERANCE_BYTES, UPLOAD_MESSAGES, assetKey } from '../../src/domain/uploads.ts';
import { abortAbandonedUploads } from '../../server/services/uploads.ts';
import { mp4Bytes, pngBytes } from '../support/file-fixtures.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from './harness.ts';

type Headers = { authorization: string };
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  endpoint: string;
  bucket: string;
  region: string;
  prefix: string;
  expiration: string;
}

const BRIEF = { name: 'Upload test', audience: 'Investors', goal: 'Raise the round', finalVideoLength: '1-2 minutes', brief: 'A short film.' };
const DAY = 86_400_000;

describe.each(DATABASES)('uploads and assets on $name', ({ url }) => {
  let server: TestServer;
  let owner: Headers;
  let user: Headers;
  let admin: Headers;
  let editor: Headers;
  let outsider: Headers;
  let organizationId: number;
  let outsiderOrganizationId: number;
  const clients: S3Client[] = [];

  const call = (method: Method, path: string, headers: Partial<Headers> = {}, payload?: unknown) =>
    server.app.inject({ method, url: `/api/v1${path}`, payload: payload as object, headers: { ...headers, host: new URL(server.baseUrl!).host } });
  const projectIn = async (headers: Headers, orgId: number) =>
    (await call('POST', `/organizations/${orgId}/projects`, headers, BRIEF)).json<{ id: number }>().id;
  const idOf = async (name: string) => (await server.db.selectFrom('projects').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const setStatus = (id: number, status: 'OPENED' | 'IN_EDITING' | 'APPROVED' | 'ARCHIVED' | 'IN_REVIEW' | 'WAITING_FOR_EDITOR') =>
    server.db.updateTable('projects').set({ status }).where('id', '=', id).execute();
  const usedSpace = async (orgId = organizationId) =>
    (await server.db.selectFrom('organizations').select('usedSpace').where('id', '=', orgId).executeTakeFirstOrThrow()).usedSpace;
  const setQuota = (storageTb: number, used = 0, orgId = organizationId) =>
    server.db.updateTable('organizations').set({ storageTb, usedSpace: used }).where('id', '=', orgId).execute();

  async function credentials(headers: Headers, projectId: number, uploadType?: string): Promise<Credentials> {
    const response = await call('POST', '/uploads/credentials', headers, { projectId, ...(uploadType && { uploadType }) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Credentials>();
  }

  function s3With(creds: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }): S3Client {
    const client = new S3Client({
      endpoint: `${server.baseUrl}/s3`,
      region: server.config.storage.region,
      forcePathStyle: true,
      credentials: {
        accessKeyId: creds.accessKeyId,
        secretAccessKey: creds.secretAccessKey,
        ...(creds.sessionToken !== undefined && { sessionToken: creds.sessionToken }),
      },
      maxAttempts: 1,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    clients.push(client);
    return client;
  }

  /** Uploads `bytes` with the project's temporary credentials under a name from check-name. */
  async function upload(headers: Headers, projectId: number, name: string, bytes: Buffer, type = 'InterviewClip') {
    const creds = await credentials(headers, projectId);
    const checked = (await call('GET', `/projects/${projectId}/assets/check-name?type=${type}&name=${encodeURIComponent(name)}`, headers)).json<{
      name: string;
      location: string;
    }>();
    await s3With(creds).send(new PutObjectCommand({ Bucket: creds.bucket, Key: checked.location, Body: bytes, ContentType: 'video/mp4' }));
    return checked;
  }

  async function uploadAndRegister(headers: Headers, projectId: number, name: string, bytes: Buffer, type = 'InterviewClip') {
    const checked = await upload(headers, projectId, name, bytes, type);
    const response = await call('POST', `/projects/${projectId}/assets`, headers, { name: checked.name, path: checked.location, type, size: bytes.length });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: number; path: string; url: string }>();
  }

  beforeAll(async () => {
    server = await startTestServer(url, { storage: true });
    owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    user = await signIn(server.app, 'user@demo.cutdesk.test');
    admin = await signIn(server.app, 'admin@demo.cutdesk.test');
    editor = await signIn(server.app, 'editor@demo.cutdesk.test');
    const registered = await call(
      'POST',
      '/register',
      {},
      { email: 'outsider-uploads@example.com', password: 'secret123', firstName: 'Out', lastName: 'Sider', phone: '555' },
    );
    outsider = { authorization: `Bearer ${registered.json().token}` };
    outsiderOrganizationId = (await call('POST', '/organizations', outsider, { name: 'Outsiders Uploads' })).json<{ id: number }>().id;
    organizationId = (await server.db.selectFrom('organizations').select('id').where('name', '=', 'Demo Studio').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    for (const client of clients) client.destroy();
    await server?.close();
  });

  describe('POST uploads/credentials', () => {
    it('gives a customer of an OPENED project credentials limited to its raw prefix, with where to send', async () => {
      const projectId = await projectIn(owner, organizationId);
      const creds = await credentials(user, projectId);
      expect(creds).toMatchObject({
        endpoint: `${server.baseUrl}/s3`,
        bucket: server.config.storage.bucket,
        region: server.config.storage.region,
        prefix: `projects/${projectId}/raw/`,
        forcePathStyle: true,
      });
      expect(creds.accessKeyId).toMatch(/^ASIA/);
      const lifetime = new Date(creds.expiration).getTime() - Date.now();
      expect(lifetime).toBeGreaterThan(50 * 60_000);
      expect(lifetime).toBeLessThanOrEqual(3600_000);
    });

    it('lets the credentials write inside the prefix only; the store refuses the rest', async () => {
      const projectId = await projectIn(owner, organizationId);
      const creds = await credentials(owner, projectId);
      const s3 = s3With(creds);
      await s3.send(new PutObjectCommand({ Bucket: creds.bucket, Key: `${creds.prefix}interviews/a.mp4`, Body: 'inside' }));
      await expect(s3.send(new PutObjectCommand({ Bucket: creds.bucket, Key: `projects/${projectId}/final/a.mp4`, Body: 'final' }))).rejects.toMatchObject({
        name: 'AccessDenied',
      });
      await expect(
        s3.send(new PutObjectCommand({ Bucket: creds.bucket, Key: `projects/${projectId + 1}/raw/interviews/a.mp4`, Body: 'other' })),
      ).rejects.toMatchObject({ name: 'AccessDenied' });
      // Without the session token the key id is unknown, as on S3.
      await expect(
        s3With({ accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey }).send(
          new PutObjectCommand({ Bucket: creds.bucket, Key: `${creds.prefix}x`, Body: 'x' }),
        ),
      ).rejects.toMatchObject({ name: 'InvalidAccessKeyId' });
      await expect(
        s3With({ ...creds, secretAccessKey: 'wrong-secret-wrong-secret' }).send(
          new PutObjectCommand({ Bucket: creds.bucket, Key: `${creds.prefix}x`, Body: 'x' }),
        ),
      ).rejects.toMatchObject({ name: 'SignatureDoesNotMatch' });
    });

    it('only upload: they cannot replace, read, delete, copy or list objects', async () => {
      const projectId = await projectIn(owner, organizationId);
      const registered = await uploadAndRegister(owner, projectId, 'kept.mp4', mp4Bytes(100));
      const creds = await credentials(owner, projectId);
      const s3 = s3With(creds);
      // Replacing a registered object (say, with a much larger one) would dodge the storage quota.
      await expect(s3.send(new PutObjectCommand({ Bucket: creds.bucket, Key: registered.path, Body: randomBytes(200) }))).rejects.toMatchObject({
        name: 'PreconditionFailed',
        $metadata: { httpStatusCode: 412 },
      });
      const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: creds.bucket, Key: registered.path }));
      const part = await s3.send(new UploadPartCommand({ Bucket: creds.bucket, Key: registered.path, UploadId, PartNumber: 1, Body: randomBytes(300) }));
      await expect(
        s3.send(
          new CompleteMultipartUploadCommand({
            Bucket: creds.bucket,
            Key: registered.path,
            UploadId,
            MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] },
          }),
        ),
      ).rejects.toMatchObject({ $metadata: { httpStatusCode: 412 } });
      expect((await server.app.ctx.storage.headObject(registered.path))?.size).toBe(100);
      for (const command of [
        new GetObjectCommand({ Bucket: creds.bucket, Key: registered.path }),
        new HeadObjectCommand({ Bucket: creds.bucket, Key: registered.path }),
        new DeleteObjectCommand({ Bucket: creds.bucket, Key: registered.path }),
        new CopyObjectCommand({ Bucket: creds.bucket, Key: `${creds.prefix}interviews/copy.mp4`, CopySource: `${creds.bucket}/${registered.path}` }),
        new ListObjectsV2Command({ Bucket: creds.bucket, Prefix: creds.prefix }),
      ]) {
        await expect(s3.send(command as PutObjectCommand), command.constructor.name).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
      }
      expect(await server.app.ctx.storage.headObject(registered.path)).not.toBeNull();
    });

    it("refuses another organization's credentials for this project's prefix, and hides the project from it (404)", async () => {
      const projectId = await projectIn(owner, organizationId);
      const theirProject = await projectIn(outsider, outsiderOrganizationId);
      expect((await call('POST', '/uploads/credentials', outsider, { projectId })).statusCode).toBe(404);
      const theirs = await credentials(outsider, theirProject);
      await expect(
        s3With(theirs).send(new PutObjectCommand({ Bucket: theirs.bucket, Key: `projects/${projectId}/raw/interviews/intruder.mp4`, Body: 'no' })),
      ).rejects.toMatchObject({ name: 'AccessDenied', $metadata: { httpStatusCode: 403 } });
    });

    it('stops working once expired', async () => {
      const projectId = await projectIn(owner, organizationId);
      const creds = await credentials(owner, projectId);
      // Not used yet, so the store has not cached the principal: it reads the expiry set here.
      await server.db
        .updateTable('storageCredentials')
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where('accessKeyId', '=', creds.accessKeyId)
        .execute();
      await expect(s3With(creds).send(new PutObjectCommand({ Bucket: creds.bucket, Key: `${creds.prefix}late.mp4`, Body: 'late' }))).rejects.toMatchObject({
        name: 'ExpiredToken',
      });
    });

    it('follows C§4 and A§4: customers while OPENED, managers the final video outside OPENED/WAITING/DELETED, never an editor', async () => {
      const projectId = await projectIn(owner, organizationId);
      const ask = (headers: Headers, uploadType?: string) => call('POST', '/uploads/credentials', headers, { projectId, ...(uploadType && { uploadType }) });
      expect((await ask(owner, 'deliverable')).statusCode).toBe(403);
      expect((await ask(admin)).statusCode).toBe(403);
      expect((await ask(admin, 'deliverable')).statusCode).toBe(409);
      expect((await ask(editor, 'deliverable')).statusCode).toBe(403);
      await setStatus(projectId, 'IN_EDITING');
      expect((await ask(owner)).statusCode).toBe(409);
      const final = await ask(admin, 'deliverable');
      expect(final.statusCode).toBe(200);
      expect(final.json().prefix).toBe(`projects/${projectId}/final/`);
      expect((await ask(editor, 'deliverable')).statusCode).toBe(403);
      await setStatus(projectId, 'WAITING_FOR_EDITOR');
      expect((await ask(admin, 'deliverable')).statusCode).toBe(409);
      expect((await call('POST', '/uploads/credentials', {}, { projectId })).statusCode).toBe(401);
      expect((await call('POST', '/uploads/credentials', owner, { projectId: 'x' })).statusCode).toBe(400);
      expect((await call('POST', '/uploads/credentials', owner, { projectId, uploadType: 'zip' })).statusCode).toBe(400);
      expect((await call('POST', '/uploads/credentials', owner, { projectId: 99999 })).statusCode).toBe(404);
    });
  });

  describe('GET projects/{id}/assets/check-name', () => {
    it('sanitises the name and keeps it unique against assets, stored objects and uploads in progress', async () => {
      const projectId = await projectIn(owner, organizationId);
      const check = async (name: string, type = 'InterviewClip') => {
        const response = await call('GET', `/projects/${projectId}/assets/check-name?type=${type}&name=${encodeURIComponent(name)}`, owner);
        expect(response.statusCode, response.body).toBe(200);
        return response.json<{ name: string; location: string }>();
      };
      expect(await check('My clip (final) #1.MP4')).toEqual({
        name: 'My clip final 1.MP4',
        location: assetKey(projectId, 'INTERVIEW_CLIP', 'My clip final 1.MP4'),
      });
      // Reserved by the first call: the next upload of the same name gets another one.
      expect((await check('My clip (final) #1.MP4')).name).toBe('My clip final 1-1.MP4');
      expect(await check('photo.png', 'Asset')).toEqual({ name: 'photo.png', location: `projects/${projectId}/raw/assets/photo.png` });
      expect((await check('b.mov', 'BRollClip')).location).toBe(`projects/${projectId}/raw/b_roll/b.mov`);
      // An object stored without a reservation (e.g. a failed registration) keeps its name too.
      await server.app.ctx.storage.putObject(assetKey(projectId, 'INTERVIEW_CLIP', 'stray.mp4'), 'x');
      expect((await check('stray.mp4')).name).toBe('stray-1.mp4');
      const registered = await uploadAndRegister(owner, projectId, 'kept.mp4', mp4Bytes(24));
      expect(registered.path).toBe(assetKey(projectId, 'INTERVIEW_CLIP', 'kept.mp4'));
      expect((await check('kept.mp4')).name).toBe('kept-1.mp4');
    });

    it("keeps a person's Unicode name for the asset and its download while the object key stays ASCII (issue 36)", async () => {
      const projectId = await projectIn(owner, organizationId);
      const name = 'b roll café ünïcødé 日本.mov';
      const checked = await upload(owner, projectId, `\u202e${name}`, mp4Bytes(24), 'BRollClip');
      expect(checked.name).toBe(name);
      expect(checked.location).toMatch(/^projects\/\d+\/raw\/b_roll\/[A-Za-z0-9._-]+\.mov$/);
      // Registration sanitises again: a name that skipped check-name cannot smuggle a bidi override or a path.
      const response = await call('POST', `/projects/${projectId}/assets`, owner, {
        name: `../\u202e${name.normalize('NFD')}\u200b`,
        path: checked.location,
        type: 'BRollClip',
        size: 24,
      });
      expect(response.statusCode, response.body).toBe(201);
      const asset = response.json<{ id: number; name: string; path: string }>();
      expect(asset).toMatchObject({ name, path: checked.location });
      const listed = (await call('GET', `/projects/${projectId}/assets?type=BRollClip`, owner)).json<{ name: string }[]>();
      expect(listed.map((a) => a.name)).toEqual([name]);
      // The download names the file as the person did (RFC 6266/5987), with an ASCII fallback.
      const link = (await call('POST', `/projects/${projectId}/links`, owner, { assetId: asset.id })).json<{ link: string; name: string }>();
      expect(link.name).toBe(name);
      const got = await fetch(link.link);
      expect(got.status).toBe(200);
      const disposition = got.headers.get('content-disposition')!;
      expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent(name)}`);
      expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+"; /);
    });

    it('answers 400 to a bad type or a missing name, 409 outside OPENED, 404 to another organization', async () => {
      const projectId = await projectIn(owner, organizationId);
      expect((await call('GET', `/projects/${projectId}/assets/check-name?type=Video&name=a.mp4`, owner)).statusCode).toBe(400);
      expect((await call('GET', `/projects/${projectId}/assets/check-name?type=Asset`, owner)).statusCode).toBe(400);
      expect((await call('GET', `/projects/${projectId}/assets/check-name?type=Asset&name=a.png`, outsider)).statusCode).toBe(404);
      expect((await call('GET', `/projects/${projectId}/assets/check-name?type=Asset&name=a.png`, admin)).statusCode).toBe(403);
      await setStatus(projectId, 'IN_EDITING');
      expect((await call('GET', `/projects/${projectId}/assets/check-name?type=Asset&name=a.png`, owner)).statusCode).toBe(409);
    });
  });

  describe('POST projects/{id}/assets', () => {
    it('registers a stored object, counts its bytes and lists it by type with a working presigned GET', async () => {
      await setQuota(2, 0);
      const projectId = await projectIn(owner, organizationId);
      const bytes = mp4Bytes(5000);
      const before = await usedSpace();
      const asset = await uploadAndRegister(user, projectId, 'Interview 1.mp4', bytes);
      expect(await usedSpace()).toBe(before + bytes.length);
      const image = await uploadAndRegister(user, projectId, 'logo.png', pngBytes(300), 'Asset');

      const clips = (await call('GET', `/projects/${projectId}/assets?type=InterviewClip`, owner)).json<
        Array<{ id: number; name: string; size: number; type: { name: string }; url: string }>
      >();
      expect(clips).toEqual([
        expect.objectContaining({ id: asset.id, name: 'Interview 1.mp4', size: 5000, type: { name: 'INTERVIEW_CLIP' }, previewPath: null, deletedAt: null }),
      ]);
      const fetched = await fetch(clips[0]!.url);
      expect(fetched.status).toBe(200);
      expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true);
      expect((await call('GET', `/projects/${projectId}/assets?type=Asset`, owner)).json().map((a: { id: number }) => a.id)).toEqual([image.id]);
      expect((await call('GET', `/projects/${projectId}/assets`, owner)).json()).toHaveLength(2);
      // Staff read every project's assets (A§2 assets panel).
      expect((await call('GET', `/projects/${projectId}/assets`, editor)).json()).toHaveLength(2);
      expect((await call('GET', `/projects/${projectId}/assets`, outsider)).statusCode).toBe(404);
      expect((await call('GET', `/projects/${projectId}/assets?type=Nope`, owner)).statusCode).toBe(400);
    });

    it('answers a repeated registration with the same record (a retried request) and counts the bytes once', async () => {
      const projectId = await projectIn(owner, organizationId);
      const bytes = mp4Bytes(1000);
      const checked = await upload(owner, projectId, 'twice.mp4', bytes);
      const body = { name: checked.name, path: checked.location, type: 'INTERVIEW_CLIP', size: bytes.length };
      const before = await usedSpace();
      // Issue 15: /metrics counts registrations and their bytes, a retried one not again.
      const registered = async () => {
        const text = (await server.app.inject({ method: 'GET', url: '/metrics' })).body;
        const value = (name: string) => Number(new RegExp(`^${name}\\{type="INTERVIEW_CLIP"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
        return { count: value('cutdesk_upload_registrations_total'), bytes: value('cutdesk_upload_registered_bytes_total') };
      };
      const metricsBefore = await registered();
      const first = await call('POST', `/projects/${projectId}/assets`, owner, body);
      const second = await call('POST', `/projects/${projectId}/assets`, owner, body);
      expect([first.statusCode, second.statusCode]).toEqual([201, 200]);
      expect(second.json().id).toBe(first.json().id);
      expect(await usedSpace()).toBe(before + bytes.length);
      expect(await registered()).toEqual({ count: metricsBefore.count + 1, bytes: metricsBefore.bytes + bytes.length });
    });

    it('keeps the folder a file sat in on a dropped card, cleaned, in every answer; null without one; 400 past 1,024 characters (issue 35)', async () => {
      await setQuota(2, 0);
      const projectId = await projectIn(owner, organizationId);
      type Answer = { id: number; folder: string | null };
      const register = async (name: string, folder?: unknown) => {
        const bytes = mp4Bytes(200);
        const checked = await upload(owner, projectId, name, bytes);
        const body = { name: checked.name, path: checked.location, type: 'InterviewClip', size: bytes.length, ...(folder !== undefined && { folder }) };
        return { body, response: await call('POST', `/projects/${projectId}/assets`, owner, body) };
      };

      // The browser's text is cleaned as a name is: `..`, `.` and empty levels go, and no markup is kept.
      const carded = await register('C0001.MP4', 'CARD/../DCIM//100MSDCF/<script>');
      expect(carded.response.statusCode, carded.response.body).toBe(201);
      const asset = carded.response.json<Answer>();
      expect(asset.folder).toBe('CARD/DCIM/100MSDCF/script');
      expect((await server.db.selectFrom('assets').select('folder').where('id', '=', asset.id).executeTakeFirstOrThrow()).folder).toBe(
        'CARD/DCIM/100MSDCF/script',
      );
      // The same object sent again answers the same asset, folder included.
      const again = await call('POST', `/projects/${projectId}/assets`, owner, carded.body);
      expect(again.statusCode).toBe(200);
      expect(again.json<Answer>()).toMatchObject({ id: asset.id, folder: 'CARD/DCIM/100MSDCF/script' });

      // No folder, a null one, an empty one and one with nothing left once cleaned: null.
      for (const [name, folder] of [['loose.mp4'], ['null.mp4', null], ['empty.mp4', ''], ['dots.mp4', '.././/..']] as const) {
        const { response } = await register(name, folder);
        expect(response.statusCode, response.body).toBe(201);
        expect(response.json<Answer>().folder).toBeNull();
      }
      // At the limit: accepted, kept within the domain's bounds.
      const longest = await register('longest.mp4', 'level/'.repeat(170) + 'abcd');
      expect(longest.response.statusCode, longest.response.body).toBe(201);
      expect(longest.response.json<Answer>().folder!.length).toBeLessThanOrEqual(MAX_FOLDER_LENGTH);

      const list = (await call('GET', `/projects/${projectId}/assets`, owner)).json<Answer[]>();
      expect(list.map((a) => a.folder)).toEqual(['CARD/DCIM/100MSDCF/script', null, null, null, null, longest.response.json<Answer>().folder]);
      // A duplicated project's assets sat in the same folders.
      const copyId = (await call('POST', `/projects/${projectId}/duplicate`, owner)).json<{ id: number }>().id;
      expect((await call('GET', `/projects/${copyId}/assets`, owner)).json<Answer[]>().map((a) => a.folder)).toEqual(list.map((a) => a.folder));

      // Past 1,024 characters, or not text: a 400 naming the field, never a 500, and nothing registered.
      const tooLong = await register('too-long.mp4', 'a/'.repeat(512) + 'b');
      expect(tooLong.response.statusCode).toBe(400);
      expect(tooLong.response.json()).toMatchObject({
        message: 'The folder is a path of at most 1,024 characters.',
        fields: { folder: 'The folder is a path of at most 1,024 characters.' },
      });
      const notText = await register('not-text.mp4', { path: 'CARD' });
      expect(notText.response.statusCode).toBe(400);
      expect(notText.response.json()).toMatchObject({ fields: { folder: expect.any(String) } });
      expect((await call('GET', `/projects/${projectId}/assets`, owner)).json<Answer[]>()).toHaveLength(list.length);
    });

    it("keeps the CRC-32 the uploading device computed beside the store's own, copied with a duplicate; 400 for one that is not a CRC-32 (issue 35)", async () => {
      await setQuota(2, 0);
      const projectId = await projectIn(owner, organizationId);
      type Answer = { id: number; crc32: number | null; sentCrc32: number | null };
      const register = async (name: string, crc32?: unknown) => {
        const bytes = mp4Bytes(300);
        const checked = await upload(owner, projectId, name, bytes);
        const body = { name: checked.name, path: checked.location, type: 'InterviewClip', size: bytes.length, ...(crc32 !== undefined && { crc32 }) };
        return call('POST', `/projects/${projectId}/assets`, owner, body);
      };
      const sent = await register('sent.mp4', 0xfedcba98);
      expect(sent.statusCode, sent.body).toBe(201);
      expect(sent.json<Answer>()).toMatchObject({ sentCrc32: 0xfedcba98 });
      expect((await register('none.mp4')).json<Answer>().sentCrc32).toBeNull();
      expect((await register('null.mp4', null)).json<Answer>().sentCrc32).toBeNull();
      for (const bad of [-1, 2 ** 32, 1.5, '12345678', { crc: 1 }]) {
        const refused = await register('bad.mp4', bad);
        expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
        expect(refused.json()).toMatchObject({ fields: { crc32: expect.any(String) } });
      }
      const copyId = (await call('POST', `/projects/${projectId}/duplicate`, owner)).json<{ id: number }>().id;
      expect((await call('GET', `/projects/${copyId}/assets`, owner)).json<Answer[]>().map((a) => a.sentCrc32)).toEqual([0xfedcba98, null, null]);
    });

    it("reuses the organization's stored copy of a file: only with its size, fingerprint and CRC-32 as read from the store, never another organization's, never for staff, kept when the original is deleted (issue 35)", async () => {
      await setQuota(2, 0);
      const fingerprintOf = (bytes: Buffer) => {
        const hash = createHash('sha256').update(fingerprintPrefix(bytes.length));
        for (const range of fingerprintRanges(bytes.length)) hash.update(bytes.subarray(range.start, range.end));
        return hash.digest('hex');
      };
      const first = await projectIn(owner, organizationId);
      const bytes = mp4Bytes(700_001);
      const original = await uploadAndRegister(owner, first, 'card.mp4', bytes);
      const fingerprint = fingerprintOf(bytes);
      const crc = crc32(bytes);
      const lookup = (headers: Headers, projectId: number, body: object = { size: bytes.length, fingerprint }) =>
        call('POST', `/projects/${projectId}/assets/copies/lookup`, headers, body);
      const reuse = (headers: Headers, projectId: number, body: object = {}) =>
        call('POST', `/projects/${projectId}/assets/copies`, headers, {
          name: 'again.mp4',
          type: 'InterviewClip',
          size: bytes.length,
          fingerprint,
          crc32: crc,
          ...body,
        });
      const second = await projectIn(owner, organizationId);
      // Not read back from the store yet: nothing to reuse.
      expect((await lookup(owner, second)).json()).toEqual({ found: false });
      expect((await reuse(owner, second)).statusCode).toBe(404);
      // The media worker's reading of the stored object (tests/server/media-pipeline.test.ts checks it computes these).
      await assetsRepo(server.db).setChecksum(original.path, bytes.length, crc, fingerprint);
      // Found, but its CRC-32 is not told: the device sends the whole file's, the server compares.
      expect((await lookup(owner, second)).json()).toEqual({ found: true });
      const space = await usedSpace();

      // Another CRC-32 (the file differs where the fingerprint does not look): 404, the file is uploaded.
      expect((await reuse(owner, second, { crc32: (crc ^ 1) >>> 0 })).statusCode).toBe(404);
      const made = await reuse(owner, second, { folder: 'CARD/../DCIM' });
      expect(made.statusCode, made.body).toBe(201);
      expect(made.json()).toMatchObject({ name: 'again.mp4', path: original.path, size: bytes.length, crc32: crc, sentCrc32: crc, folder: 'CARD/DCIM' });
      // Counted once: the organization holds the same bytes.
      expect(await usedSpace()).toBe(space);
      // Given again to a project that holds it (as any kind), it is uploaded as a file of its own (404);
      // an image's zone cannot take a clip's bytes (415).
      for (const type of ['InterviewClip', 'BRollClip']) expect((await reuse(owner, second, { type })).statusCode).toBe(404);
      expect((await reuse(owner, await projectIn(owner, organizationId), { type: 'Asset', name: 'logo.png' })).statusCode).toBe(415);

      // Another organization never learns of it nor gets it; staff do not upload; a fingerprint is 64 hex digits.
      const theirs = await projectIn(outsider, outsiderOrganizationId);
      await setQuota(2, 0, outsiderOrganizationId);
      expect((await lookup(outsider, theirs)).json()).toEqual({ found: false });
      expect((await reuse(outsider, theirs)).statusCode).toBe(404);
      expect((await lookup(outsider, second)).statusCode).toBe(404);
      expect((await reuse(admin, second)).statusCode).toBe(403);
      for (const bad of ['', 'ABC', fingerprint.toUpperCase(), `${fingerprint}0`, 12]) {
        const refused = await lookup(owner, second, { size: bytes.length, fingerprint: bad });
        expect(refused.statusCode, String(bad)).toBe(400);
        expect(refused.json()).toMatchObject({
          fields: { fingerprint: typeof bad === 'string' ? 'A fingerprint is 64 lower-case hex digits.' : 'Must be text.' },
        });
      }

      // The original deleted, the copy's object stays (it is the copy's too).
      expect((await call('DELETE', `/projects/${first}/assets/${original.id}`, owner)).statusCode).toBe(204);
      expect(await server.app.ctx.storage.headObject(original.path)).not.toBeNull();
      expect(await usedSpace()).toBe(space);

      // A hidden project's files are not the organization's to reuse (its people do not see them).
      await server.db.updateTable('projects').set({ status: 'HIDDEN' }).where('id', '=', second).execute();
      expect((await lookup(owner, await projectIn(owner, organizationId))).json()).toEqual({ found: false });
      await setStatus(second, 'OPENED');

      // The last record deleted just after a reuse read the stored bytes' head: the reuse finds none
      // left (404), never a record of a deleted object, and the space is freed once.
      const third = await projectIn(owner, organizationId);
      const storage = server.app.ctx.storage;
      const read = storage.getObjectStream.bind(storage);
      storage.getObjectStream = async (...args) => {
        storage.getObjectStream = read;
        const stream = await read(...args);
        expect((await call('DELETE', `/projects/${second}/assets/${made.json<{ id: number }>().id}`, owner)).statusCode).toBe(204);
        return stream;
      };
      try {
        expect((await reuse(owner, third)).statusCode).toBe(404);
      } finally {
        storage.getObjectStream = read;
      }
      expect(await server.app.ctx.storage.headObject(original.path)).toBeNull();
      expect(await usedSpace()).toBe(space - bytes.length);
      expect((await call('GET', `/projects/${third}/assets`, owner)).json()).toEqual([]);
    });

    it('checks the object: under the folder of its type, present, of the declared size', async () => {
      const projectId = await projectIn(owner, organizationId);
      const otherProject = await projectIn(owner, organizationId);
      const bytes = mp4Bytes(100);
      const checked = await upload(owner, projectId, 'c.mp4', bytes);
      const register = (body: object) =>
        call('POST', `/projects/${projectId}/assets`, owner, { name: 'c.mp4', path: checked.location, type: 'InterviewClip', size: 100, ...body });
      expect((await register({ size: 99 })).json()).toMatchObject({ message: UPLOAD_MESSAGES.sizeMismatch });
      expect((await register({ path: assetKey(projectId, 'INTERVIEW_CLIP', 'missing.mp4') })).json()).toMatchObject({ message: UPLOAD_MESSAGES.objectMissing });
      expect((await register({ type: 'Asset' })).json()).toMatchObject({ message: UPLOAD_MESSAGES.pathOutside });
      expect((await register({ path: assetKey(otherProject, 'INTERVIEW_CLIP', 'c.mp4') })).json()).toMatchObject({ message: UPLOAD_MESSAGES.pathOutside });
      expect((await register({ path: `projects/${projectId}/raw/interviews/../../final/c.mp4` })).statusCode).toBe(400);
      expect((await register({ size: -1 })).statusCode).toBe(400);
      expect((await register({ previewPath: 'elsewhere/p.mp4' })).statusCode).toBe(400);
      // Another asset's object can never be a preview: deleting this record would remove it.
      const victim = await uploadAndRegister(owner, projectId, 'victim.mp4', mp4Bytes(64));
      expect((await register({ previewPath: victim.path })).json()).toMatchObject({ fields: { previewPath: UPLOAD_MESSAGES.pathOutside } });
      expect(
        (await call('POST', `/projects/${projectId}/assets`, outsider, { name: 'c.mp4', path: checked.location, type: 'InterviewClip', size: 100 })).statusCode,
      ).toBe(404);
      expect(
        (await call('POST', `/projects/${projectId}/assets`, admin, { name: 'c.mp4', path: checked.location, type: 'InterviewClip', size: 100 })).statusCode,
      ).toBe(403);
      expect((await register({})).statusCode).toBe(201);
    });

    it('accepts the object of a multipart upload made with the temporary credentials', async () => {
      const projectId = await projectIn(owner, organizationId);
      const creds = await credentials(owner, projectId);
      const checked = (await call('GET', `/projects/${projectId}/assets/check-name?type=BRollClip&name=big.mov`, owner)).json<{
        name: string;
        location: string;
      }>();
      const s3 = s3With(creds);
      const part1 = mp4Bytes(5 * 1024 * 1024);
      const part2 = randomBytes(1234);
      const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: creds.bucket, Key: checked.location, ContentType: 'video/quicktime' }));
      const e1 = await s3.send(new UploadPartCommand({ Bucket: creds.bucket, Key: checked.location, UploadId, PartNumber: 1, Body: part1 }));
      const e2 = await s3.send(new UploadPartCommand({ Bucket: creds.bucket, Key: checked.location, UploadId, PartNumber: 2, Body: part2 }));
      await s3.send(
        new CompleteMultipartUploadCommand({
          Bucket: creds.bucket,
          Key: checked.location,
          UploadId,
          MultipartUpload: {
            Parts: [
              { PartNumber: 1, ETag: e1.ETag },
              { PartNumber: 2, ETag: e2.ETag },
            ],
          },
        }),
      );
      const response = await call('POST', `/projects/${projectId}/assets`, owner, {
        name: checked.name,
        path: checked.location,
        type: 'BRollClip',
        size: part1.length + part2.length,
      });
      expect(response.statusCode, response.body).toBe(201);
    });

    it('refuses going over the quota with "There is no more memory." and deletes the refused object', async () => {
      const quotaBytes = 10_000_000;
      await setQuota(quotaBytes / BYTES_PER_TB, quotaBytes - 500);
      const projectId = await projectIn(owner, organizationId);
      const fits = await upload(owner, projectId, 'fits.mp4', mp4Bytes(400));
      expect(
        (await call('POST', `/projects/${projectId}/assets`, owner, { name: fits.name, path: fits.location, type: 'InterviewClip', size: 400 })).statusCode,
      ).toBe(201);
      // Within the tolerance still fits; past it does not.
      await setQuota(quotaBytes / BYTES_PER_TB, quotaBytes + QUOTA_TOLERANCE_BYTES - 1000);
      const tooBig = await upload(owner, projectId, 'too-big.mp4', mp4Bytes(1001));
      const refused = await call('POST', `/projects/${projectId}/assets`, owner, {
        name: tooBig.name,
        path: tooBig.location,
        type: 'InterviewClip',
        size: 1001,
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({ message: UPLOAD_MESSAGES.noMoreMemory, code: NO_MEMORY_CODE });
      expect(await server.app.ctx.storage.headObject(tooBig.location)).toBeNull();
      expect(await usedSpace()).toBe(quotaBytes + QUOTA_TOLERANCE_BYTES - 1000);
      await setQuota(2, 0);
    });

    it('lets concurrent registrations fill the quota exactly, never past it', async () => {
      const size = 100_000;
      const quota = 10 * size;
      await setQuota(quota / BYTES_PER_TB, 0);
      // The tolerance lets one more in; 16 racing uploads of `size` against room for 10 (+ tolerance).
      const room = Math.floor((quota + QUOTA_TOLERANCE_BYTES) / size);
      const projectId = await projectIn(owner, organizationId);
      const stored = await Promise.all(Array.from({ length: room + 6 }, (_, i) => upload(owner, projectId, `race-${i}.mp4`, mp4Bytes(size))));
      const answers = await Promise.all(
        stored.map((each) => call('POST', `/projects/${projectId}/assets`, owner, { name: each.name, path: each.location, type: 'InterviewClip', size })),
      );
      const codes = answers.map((a) => a.statusCode);
      expect(codes.filter((c) => c === 201)).toHaveLength(room);
      expect(codes.filter((c) => c === 409)).toHaveLength(6);
      expect(await usedSpace()).toBe(room * size);
      expect(await usedSpace()).toBeLessThanOrEqual(quota + QUOTA_TOLERANCE_BYTES);
      await setQuota(2, 0);
    });

    it('refuses registration once the project left OPENED', async () => {
      const projectId = await projectIn(owner, organizationId);
      const checked = await upload(owner, projectId, 'late.mp4', randomBytes(10));
      await setStatus(projectId, 'WAITING_FOR_EDITOR');
      expect(
        (await call('POST', `/projects/${projectId}/assets`, owner, { name: checked.name, path: checked.location, type: 'InterviewClip', size: 10 }))
          .statusCode,
      ).toBe(409);
    });
  });

  describe('DELETE projects/{id}/assets/{assetId} and DELETE projects/{id}/assets', () => {
    it('deletes the record and the object and frees the space (204)', async () => {
      await setQuota(2, 0);
      const projectId = await projectIn(owner, organizationId);
      const asset = await uploadAndRegister(owner, projectId, 'gone.mp4', mp4Bytes(700));
      expect(await usedSpace()).toBe(700);
      expect((await call('DELETE', `/projects/${projectId}/assets/${asset.id}`, user)).statusCode).toBe(204);
      expect(await usedSpace()).toBe(0);
      expect(await server.app.ctx.storage.headObject(asset.path)).toBeNull();
      expect((await call('GET', `/projects/${projectId}/assets`, owner)).json()).toEqual([]);
      expect((await call('DELETE', `/projects/${projectId}/assets/${asset.id}`, owner)).statusCode).toBe(404);
      expect((await call('DELETE', `/projects/${projectId}/assets/abc`, owner)).statusCode).toBe(404);
    });

    it('keeps an object a duplicated project still uses, and deletes it with the last record', async () => {
      await setQuota(2, 0);
      const projectId = await projectIn(owner, organizationId);
      const asset = await uploadAndRegister(owner, projectId, 'shared.mp4', mp4Bytes(900));
      const copyId = (await call('POST', `/projects/${projectId}/duplicate`, owner)).json<{ id: number }>().id;
      const copyAsset = (await call('GET', `/projects/${copyId}/assets`, owner)).json<Array<{ id: number; path: string }>>()[0]!;
      expect(copyAsset.path).toBe(asset.path);
      expect((await call('DELETE', `/projects/${projectId}/assets/${asset.id}`, owner)).statusCode).toBe(204);
      expect(await server.app.ctx.storage.headObject(asset.path)).not.toBeNull();
      expect(await usedSpace()).toBe(900);
      expect((await call('DELETE', `/projects/${copyId}/assets/${copyAsset.id}`, owner)).statusCode).toBe(204);
      expect(await server.app.ctx.storage.headObject(asset.path)).toBeNull();
      expect(await usedSpace()).toBe(0);
    });

    it('frees a shared object exactly once when both records are deleted at the same time', async () => {
      await setQuota(2, 0);
      const projectId = await projectIn(owner, organizationId);
      const asset = await uploadAndRegister(owner, projectId, 'both.mp4', mp4Bytes(800));
      const copyId = (await call('POST', `/projects/${projectId}/duplicate`, owner)).json<{ id: number }>().id;
      const copyAsset = (await call('GET', `/projects/${copyId}/assets`, owner)).json<Array<{ id: number }>>()[0]!;
      const answers = await Promise.all([
        call('DELETE', `/projects/${projectId}/assets/${asset.id}`, owner),
        call('DELETE', `/projects/${copyId}/assets/${copyAsset.id}`, owner),
      ]);
      expect(answers.map((a) => a.statusCode)).toEqual([204, 204]);
      expect(await usedSpace()).toBe(0);
      expect(await server.app.ctx.storage.headObject(asset.path)).toBeNull();
    });

    it('locks single deletes outside OPENED, and refuses staff and other organizations', async () => {
      const projectId = await projectIn(owner, organizationId);
      const asset = await uploadAndRegister(owner, projectId, 'locked.mp4', mp4Bytes(24));
      expect((await call('DELETE', `/projects/${projectId}/assets/${asset.id}`, outsider)).statusCode).toBe(404);
      expect((await call('DELETE', `/projects/${projectId}/assets/${asset.id}`, admin)).statusCode).toBe(403);
      await setStatus(projectId, 'APPROVED');
      expect((await call('DELETE', `/projects/${projectId}/assets/${asset.id}`, owner)).statusCode).toBe(409);
    });

    it('deletes all (or all of a type) only for OPENED, APPROVED and ARCHIVED projects', async () => {
      await setQuota(2, 0);
      const projectId = await projectIn(owner, organizationId);
      await uploadAndRegister(owner, projectId, 'i1.mp4', mp4Bytes(24));
      await uploadAndRegister(owner, projectId, 'i2.mp4', mp4Bytes(20));
      const png = pngBytes(120);
      const image = await uploadAndRegister(owner, projectId, 'p.png', png, 'Asset');
      expect((await call('DELETE', `/projects/${projectId}/assets?type=InterviewClip`, owner)).statusCode).toBe(204);
      expect((await call('GET', `/projects/${projectId}/assets`, owner)).json().map((a: { id: number }) => a.id)).toEqual([image.id]);
      expect(await usedSpace()).toBe(png.length);
      for (const status of ['IN_EDITING', 'IN_REVIEW', 'WAITING_FOR_EDITOR'] as const) {
        await setStatus(projectId, status);
        const refused = await call('DELETE', `/projects/${projectId}/assets`, owner);
        expect(refused.statusCode).toBe(409);
        expect(refused.json().message).toBe(UPLOAD_MESSAGES.deleteAllStatus);
      }
      await setStatus(projectId, 'ARCHIVED');
      expect((await call('DELETE', `/projects/${projectId}/assets`, admin)).statusCode).toBe(403);
      expect((await call('DELETE', `/projects/${projectId}/assets`, outsider)).statusCode).toBe(404);
      expect((await call('DELETE', `/projects/${projectId}/assets`, owner)).statusCode).toBe(204);
      expect((await call('GET', `/projects/${projectId}/assets`, owner)).json()).toEqual([]);
      expect(await usedSpace()).toBe(0);
      expect((await call('DELETE', `/projects/${projectId}/assets?type=Bogus`, owner)).statusCode).toBe(400);
    });
  });

  describe('abandoned multipart uploads', () => {
    it('are aborted after 7 days by the server job, with expired reservations and credentials', async () => {
      const projectId = await idOf('Spring launch teaser');
      const creds = await credentials(owner, projectId);
      const key = `${creds.prefix}interviews/abandoned.mp4`;
      const { UploadId } = await s3With(creds).send(new CreateMultipartUploadCommand({ Bucket: creds.bucket, Key: key }));
      const soon = await abortAbandonedUploads(server.app.ctx, new Date(Date.now() + 6 * DAY));
      expect(soon.aborted).toBe(0);
      // Credentials live an hour: six days later every one issued so far is gone.
      expect(soon.credentials).toBeGreaterThanOrEqual(1);
      expect(await server.db.selectFrom('storageCredentials').select('accessKeyId').execute()).toEqual([]);
      expect(await server.app.ctx.storage.listParts(key, UploadId!)).toEqual([]);
      const later = await abortAbandonedUploads(server.app.ctx, new Date(Date.now() + 7.5 * DAY));
      expect(later.aborted).toBeGreaterThanOrEqual(1);
      // Reservations outlive the 7 days an upload may stay open, then go.
      expect(later.reservations).toBe(0);
      expect((await abortAbandonedUploads(server.app.ctx, new Date(Date.now() + 9 * DAY))).reservations).toBeGreaterThanOrEqual(1);
      expect(await server.app.ctx.storage.listParts(key, UploadId!)).toBeNull();
    });
  });
});
