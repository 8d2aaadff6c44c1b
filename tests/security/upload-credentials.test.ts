import { randomBytes } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, resetPassword as resetPasswordOf } from './session-support.ts';
import { deleteOrphanObjects, s3ObjectLister } from '../../server/services/orphan-cleanup.ts';
import { embeddedCredentialResolver } from '../../server/storage/upload-credentials.ts';
import { mp4Bytes } from '../support/file-fixtures.ts';
import { DATABASES, DEMO_PASSWORD, signIn, startTestServer, type TestServer } from '../server/harness.ts';

/**
 * Issue 9: upload credentials outlive their reason. A credential stops working once its user
 * is disabled or deleted, the session that got it ends (password reset, the impersonating
 * admin's revocation) or its project leaves the status that allowed the upload (at the store's
 * next credential look-up, at most 30 s later); objects nobody registered are deleted after the
 * grace, so they cannot hold storage outside the quota.
 */

type Headers = { authorization: string };
interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  bucket: string;
  prefix: string;
}
const BRIEF = { name: 'Credential test', audience: 'Investors', goal: 'Raise the round', finalVideoLength: '1-2 minutes', brief: 'A short film.' };
const DAY = 86_400_000;
/** Past the store's 30 s credential cache: the next request looks the credential up again. */
const AFTER_CACHE_MS = 31_000;
let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter += 1)}`;

describe.each(DATABASES)('upload credentials on $name', ({ url }) => {
  let server: TestServer;
  let owner: Headers;
  let admin: Headers;
  let organizationId: number;
  const clients: S3Client[] = [];

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, headers: Partial<Headers> = {}, payload?: unknown) =>
    server.app.inject({ method, url: `/api/v1${path}`, payload: payload as object, headers: { ...headers, host: new URL(server.baseUrl!).host } });

  async function credentials(headers: Headers, projectId: number, uploadType?: string): Promise<Credentials> {
    const response = await call('POST', '/uploads/credentials', headers, { projectId, ...(uploadType && { uploadType }) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Credentials>();
  }

  function s3With(creds: Credentials): S3Client {
    const client = new S3Client({
      endpoint: `${server.baseUrl}/s3`,
      region: server.config.storage.region,
      forcePathStyle: true,
      credentials: { accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey, sessionToken: creds.sessionToken },
      maxAttempts: 1,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    clients.push(client);
    return client;
  }

  const put = (creds: Credentials, name: string) =>
    s3With(creds).send(new PutObjectCommand({ Bucket: creds.bucket, Key: `${creds.prefix}interviews/${name}`, Body: randomBytes(100) }));
  const newProject = async () => (await call('POST', `/organizations/${organizationId}/projects`, owner, BRIEF)).json<{ id: number }>().id;
  const lookUpFresh = (accessKeyId: string) => embeddedCredentialResolver(server.db, server.config.storage).lookup(accessKeyId);
  /** Moves the clock past the credential cache (Date only: timers and sockets run as usual). */
  const passCache = () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + AFTER_CACHE_MS);
  };

  const resetPassword = (email: string, newPassword: string) => resetPasswordOf(server, email, newPassword);

  /** A new owner (own organization, one OPENED project), so the demo owner's sessions stay as they are. */
  async function newOwner(): Promise<{ email: string; session: Headers; organizationId: number; projectId: number }> {
    const email = `${unique('reset')}@example.com`;
    const registered = await call('POST', '/register', {}, { email, password: 'first-password', firstName: 'Re', lastName: 'Set', phone: '5551234' });
    expect(registered.statusCode, registered.body).toBe(201);
    const session = bearer(registered.json<{ token: string }>().token);
    const organization = await call('POST', '/organizations', session, { name: unique('Reset Org') });
    expect(organization.statusCode, organization.body).toBe(201);
    const id = organization.json<{ id: number }>().id;
    const project = await call('POST', `/organizations/${id}/projects`, session, BRIEF);
    expect(project.statusCode, project.body).toBe(201);
    return { email, session, organizationId: id, projectId: project.json<{ id: number }>().id };
  }

  /** A throwaway admin with a session of their own, so the demo admin's sessions stay as they are. */
  async function newAdmin(): Promise<{ id: number; email: string; session: Headers }> {
    const email = `${unique('admin')}@example.com`;
    const superadmin = await signIn(server.app, 'superadmin@demo.cutdesk.test');
    const created = await call('POST', '/users', superadmin, { email, firstName: 'Ada', lastName: 'Admin', role: 'Admin' });
    expect(created.statusCode, created.body).toBe(201);
    return { id: created.json<{ id: number }>().id, email, session: await resetPassword(email, DEMO_PASSWORD) };
  }

  const impersonate = async (admin: Headers, id: number) => {
    const response = await call('GET', `/organizations/${id}/admin/login`, admin);
    expect(response.statusCode, response.body).toBe(200);
    return bearer(response.json<{ token: string }>().token);
  };
  const expired = async (accessKeyId: string) => (await lookUpFresh(accessKeyId))!.expiresAt!.getTime() <= Date.now();

  beforeAll(async () => {
    server = await startTestServer(url, { storage: true });
    owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    admin = await signIn(server.app, 'admin@demo.cutdesk.test');
    organizationId = (await server.db.selectFrom('organizations').select('id').where('name', '=', 'Demo Studio').executeTakeFirstOrThrow()).id;
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    for (const client of clients) client.destroy();
    await server?.close();
  });

  it('stop working once the project leaves OPENED', async () => {
    const projectId = await newProject();
    const creds = await credentials(owner, projectId);
    await put(creds, 'before.mp4');
    await server.db.updateTable('projects').set({ status: 'WAITING_FOR_EDITOR' }).where('id', '=', projectId).execute();
    expect((await lookUpFresh(creds.accessKeyId))!.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now());
    passCache();
    await expect(put(creds, 'after.mp4')).rejects.toMatchObject({ name: 'ExpiredToken' });
    // The worker asks for new ones and hears why not.
    expect((await call('POST', '/uploads/credentials', owner, { projectId })).statusCode).toBe(409);
  });

  it('stop working once their user is disabled or deleted', async () => {
    const email = `uploader-${Date.now().toString(36)}-${(counter += 1)}@example.com`;
    const created = await call('POST', '/users', owner, { email, firstName: 'Up', lastName: 'Loader', phone: '5551234', role: 'User' });
    const memberId = created.json<{ id: number }>().id;
    const session = { authorization: `Bearer ${await server.app.ctx.tokens.sign({ userId: memberId, impersonatorId: null, sessionVersion: 0 })}` };
    const projectId = await newProject();
    const creds = await credentials(session, projectId);
    const again = await credentials(session, projectId);
    await put(creds, 'member.mp4');
    expect((await call('PATCH', `/users/${memberId}`, owner, { isEnabled: 0 })).statusCode).toBe(200);
    passCache();
    await expect(put(creds, 'disabled.mp4')).rejects.toMatchObject({ name: 'ExpiredToken' });
    vi.useRealTimers();
    expect((await call('PATCH', `/users/${memberId}`, owner, { isEnabled: 1 })).statusCode).toBe(200);
    // Disabling ended the session for good, and its credentials with it: enabling again revives neither.
    expect(await expired(again.accessKeyId)).toBe(true);
    const { sessionVersion } = await server.db.selectFrom('users').select('sessionVersion').where('id', '=', memberId).executeTakeFirstOrThrow();
    const renewed = await credentials(bearer(await server.app.ctx.tokens.sign({ userId: memberId, impersonatorId: null, sessionVersion })), projectId);
    expect(await expired(renewed.accessKeyId)).toBe(false);
    expect((await call('DELETE', `/users/${memberId}`, owner)).statusCode).toBe(204);
    expect(await expired(renewed.accessKeyId)).toBe(true);
  });

  it('credentials end with the session that got them: password reset', async () => {
    const member = await newOwner();
    const creds = await credentials(member.session, member.projectId);
    await put(creds, 'before-reset.mp4');
    const fresh = await resetPassword(member.email, 'second-password');
    expect((await call('GET', '/me', member.session)).statusCode).toBe(401);
    expect(await expired(creds.accessKeyId)).toBe(true);
    passCache();
    await expect(put(creds, 'after-reset.mp4')).rejects.toMatchObject({ name: 'ExpiredToken' });
    // The worker asks for new ones with the old token and is told to sign in; the new session uploads.
    expect((await call('POST', '/uploads/credentials', member.session, { projectId: member.projectId })).statusCode).toBe(401);
    await put(await credentials(fresh, member.projectId), 'new-session.mp4');
  });

  it('a revocation reaches the store at the next look-up: within the 30 s cache, not later', async () => {
    const member = await newOwner();
    const creds = await credentials(member.session, member.projectId);
    let clock = Date.now();
    const resolver = embeddedCredentialResolver(server.db, server.config.storage, () => clock);
    expect((await resolver.lookup(creds.accessKeyId))!.expiresAt!.getTime()).toBeGreaterThan(clock);
    await resetPassword(member.email, 'second-password');
    clock += 29_000;
    // The documented bound: the cached look-up still stands...
    expect((await resolver.lookup(creds.accessKeyId))!.expiresAt!.getTime()).toBeGreaterThan(clock);
    clock += 1_000;
    // ...and the next one sees the ended session.
    expect((await resolver.lookup(creds.accessKeyId))!.expiresAt!.getTime()).toBeLessThanOrEqual(clock);
  });

  it("…and with the impersonating admin's revocation", async () => {
    const member = await newOwner();
    const admin = await newAdmin();
    const superadmin = await signIn(server.app, 'superadmin@demo.cutdesk.test');
    // The owner's own credentials are not the admin's: they outlive the admin's revocation.
    const ownCreds = await credentials(member.session, member.projectId);

    // The admin's password reset ends the impersonation and the credentials it got.
    const first = await credentials(await impersonate(admin.session, member.organizationId), member.projectId);
    await put(first, 'impersonated.mp4');
    const adminSession = await resetPassword(admin.email, 'admin-second-password');
    expect(await expired(first.accessKeyId)).toBe(true);

    // Disabling the admin too: through the store, past the cache.
    const second = await credentials(await impersonate(adminSession, member.organizationId), member.projectId);
    expect(await expired(second.accessKeyId)).toBe(false);
    expect((await call('PATCH', `/users/${admin.id}`, superadmin, { isEnabled: 0 })).statusCode).toBe(200);
    expect(await expired(second.accessKeyId)).toBe(true);
    passCache();
    await expect(put(second, 'admin-disabled.mp4')).rejects.toMatchObject({ name: 'ExpiredToken' });
    await put(ownCreds, 'owner-still-uploads.mp4');
    vi.useRealTimers();

    // An admin no longer staff, or deleted, ends it as well.
    const other = await newAdmin();
    const third = await credentials(await impersonate(other.session, member.organizationId), member.projectId);
    await server.db.updateTable('users').set({ role: 'USER' }).where('id', '=', other.id).execute();
    expect(await expired(third.accessKeyId)).toBe(true);
    await server.db.updateTable('users').set({ role: 'ADMIN' }).where('id', '=', other.id).execute();
    expect(await expired(third.accessKeyId)).toBe(false);
    expect((await call('DELETE', `/users/${other.id}`, superadmin)).statusCode).toBe(204);
    expect(await expired(third.accessKeyId)).toBe(true);
  });

  it('deliverable credentials stop working once the project is deleted', async () => {
    const projectId = await newProject();
    await server.db.updateTable('projects').set({ status: 'IN_EDITING' }).where('id', '=', projectId).execute();
    const creds = await credentials(admin, projectId, 'deliverable');
    expect((await lookUpFresh(creds.accessKeyId))!.expiresAt!.getTime()).toBeGreaterThan(Date.now());
    await server.db.updateTable('projects').set({ status: 'DELETED', deletedAt: new Date() }).where('id', '=', projectId).execute();
    expect((await lookUpFresh(creds.accessKeyId))!.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('unregistered uploads are deleted after the grace; registered ones and young ones stay', async () => {
    const projectId = await newProject();
    const creds = await credentials(owner, projectId);
    const s3 = s3With(creds);
    const orphan = `${creds.prefix}interviews/never-registered.mp4`;
    await s3.send(new PutObjectCommand({ Bucket: creds.bucket, Key: orphan, Body: randomBytes(2000) }));
    const checked = (await call('GET', `/projects/${projectId}/assets/check-name?type=InterviewClip&name=kept.mp4`, owner)).json<{
      name: string;
      location: string;
    }>();
    const bytes = mp4Bytes(3000);
    await s3.send(new PutObjectCommand({ Bucket: creds.bucket, Key: checked.location, Body: bytes, ContentType: 'video/mp4' }));
    const registered = await call('POST', `/projects/${projectId}/assets`, owner, {
      name: checked.name,
      path: checked.location,
      type: 'InterviewClip',
      size: bytes.length,
    });
    expect(registered.statusCode, registered.body).toBe(201);
    // A deliverable nobody registered, and one that is the project's final video.
    await server.db.updateTable('projects').set({ status: 'IN_EDITING' }).where('id', '=', projectId).execute();
    const finalCreds = await credentials(admin, projectId, 'deliverable');
    const finalS3 = s3With(finalCreds);
    const strayFinal = `${finalCreds.prefix}1-stray.mp4`;
    const finalVideo = `${finalCreds.prefix}2-cut.mp4`;
    // An earlier cut, replaced as the final video but kept as review version 1 with its comments.
    const earlierCut = `${finalCreds.prefix}0-first-cut.mp4`;
    for (const key of [strayFinal, finalVideo, earlierCut])
      await finalS3.send(new PutObjectCommand({ Bucket: finalCreds.bucket, Key: key, Body: randomBytes(500) }));
    await server.db.updateTable('projects').set({ finalVideoPath: finalVideo }).where('id', '=', projectId).execute();
    await server.db.insertInto('projectVersions').values({ projectId, number: 1, videoPath: earlierCut }).execute();

    const exists = async (key: string) => (await server.app.ctx.storage.headObject(key)) !== null;
    const lister = s3ObjectLister(server.config.storage, `${server.baseUrl}/s3`);
    try {
      // Within the grace nothing goes: the upload may still be registered.
      await deleteOrphanObjects(server.app.ctx, lister.list, new Date(Date.now() + DAY));
      expect(await exists(orphan)).toBe(true);
      expect(await exists(strayFinal)).toBe(true);
      const swept = await deleteOrphanObjects(server.app.ctx, lister.list, new Date(Date.now() + 8 * DAY));
      expect(swept.deleted).toBeGreaterThanOrEqual(2);
      expect(await exists(orphan)).toBe(false);
      expect(await exists(strayFinal)).toBe(false);
      expect(await exists(checked.location)).toBe(true);
      expect(await exists(finalVideo)).toBe(true);
      expect(await exists(earlierCut)).toBe(true);
      expect(await server.app.ctx.storage.headObject(checked.location)).toMatchObject({ size: bytes.length });
    } finally {
      lister.close();
    }
    // The registered asset is still served.
    expect((await call('GET', `/projects/${projectId}/assets`, owner)).json<unknown[]>()).toHaveLength(1);
  });
});
