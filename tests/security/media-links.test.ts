import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signMediaToken, verifyMediaToken } from '../../server/media/media-links.ts';
import { usersRepo } from '../../server/repositories/users.ts';
import { bearer, resetPassword as resetPasswordOf } from './session-support.ts';
import { DATABASES, DEMO_PASSWORD, signIn, startTestServer, type TestServer } from '../server/harness.ts';

/**
 * Issue 9, media links: a link (`/api/v1/media/{token}/{file}`) is minted for the session that
 * fetched the project and ends with it: the user's password reset, disable or delete, and for
 * a link minted while impersonating, the admin's revocation (disable, password reset). Within
 * a session the link stays the same for the hour, so the player does not restart on refetch.
 */

type Headers = Record<string, string>;
const SECRET = 'secret-secret-secret-secret-secret';
const HOUR = 3_600_000;
let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter += 1)}`;

describe('media tokens carry the session', () => {
  const now = Date.UTC(2026, 10, 23, 14, 5);
  const own = { userId: 3, sessionVersion: 4, impersonatorId: null, impersonatorSessionVersion: null };
  const impersonated = { userId: 3, sessionVersion: 4, impersonatorId: 11, impersonatorSessionVersion: 2 };

  it('round-trip the session, and stay the same for the same session within the hour', () => {
    const token = signMediaToken(SECRET, 7, own, now);
    expect(signMediaToken(SECRET, 7, own, now + 40 * 60_000)).toBe(token);
    expect(verifyMediaToken(SECRET, token, now)).toMatchObject({ projectId: 7, ...own });
    const asAdmin = signMediaToken(SECRET, 7, impersonated, now);
    expect(verifyMediaToken(SECRET, asAdmin, now)).toMatchObject({ projectId: 7, ...impersonated });
    // Another session (new version, or the same user impersonated) gets another link.
    expect(signMediaToken(SECRET, 7, { ...own, sessionVersion: 5 }, now)).not.toBe(token);
    expect(asAdmin).not.toBe(token);
  });

  it('refuse a changed session or a removed impersonator', () => {
    const token = signMediaToken(SECRET, 7, own, now);
    expect(verifyMediaToken(SECRET, token.replace(/^7\.3\.4\./, '7.3.5.'), now)).toBeNull();
    const asAdmin = signMediaToken(SECRET, 7, impersonated, now);
    // Dropping the admin from an impersonated link does not make it the user's own.
    expect(verifyMediaToken(SECRET, asAdmin.replace(/^7\.3\.4\.11\.2\./, '7.3.4.'), now)).toBeNull();
    expect(verifyMediaToken(SECRET, asAdmin.replace(/^7\.3\.4\.11\.2\./, '7.3.4.11.3.'), now)).toBeNull();
  });

  it('answer a link of the old form (no session) as expired, so the page reloads', () => {
    const expires = Math.floor((now + 12 * HOUR) / 1000).toString(36);
    const key = createHmac('sha256', SECRET).update('cutdesk media links v1').digest();
    const body = `7.3.${expires}`;
    const v1 = `${body}.${createHmac('sha256', key).update(body).digest('base64url').slice(0, 32)}`;
    expect(verifyMediaToken(SECRET, v1, now)).toBe('expired');
    expect(verifyMediaToken('another-secret-another-secret-xx', v1, now)).toBeNull();
  });
});

describe.each(DATABASES)('media links end with their session on $name', ({ url }) => {
  let server: TestServer;
  let superadmin: Headers;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, headers: Headers = {}, payload?: object) =>
    server.app.inject({ method, url: path.startsWith('/api/') ? path : `/api/v1${path}`, headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    server = await startTestServer(url);
    superadmin = await signIn(server.app, 'superadmin@demo.cutdesk.test');
  });
  afterAll(async () => {
    await server?.close();
  });

  const resetPassword = (email: string, newPassword: string) => resetPasswordOf(server, email, newPassword);

  /** A new owner whose project's version is in review: the customer sees its media. */
  async function ownerWithReleasedVersion(): Promise<{ email: string; session: Headers; organizationId: number; projectId: number }> {
    const email = `${unique('media')}@example.com`;
    const registered = await call('POST', '/register', {}, { email, password: 'first-password', firstName: 'Me', lastName: 'Dia', phone: '5551234' });
    expect(registered.statusCode, registered.body).toBe(201);
    const session = bearer(registered.json<{ token: string }>().token);
    const organizationId = (await call('POST', '/organizations', session, { name: unique('Media Org') })).json<{ id: number }>().id;
    const created = await call('POST', `/organizations/${organizationId}/projects`, session, {
      name: unique('Cut').slice(0, 40),
      audience: 'All',
      goal: 'Views',
      finalVideoLength: '0-60 seconds',
      brief: 'Cuts.',
    });
    expect(created.statusCode, created.body).toBe(201);
    const projectId = created.json<{ id: number }>().id;
    await server.db
      .updateTable('projects')
      .set({
        status: 'IN_REVIEW',
        versionReleased: true,
        latestSubmittedAt: new Date(),
        finalVideoPath: `projects/${projectId}/final/1-cut.mp4`,
        finalVideoSize: 1234,
        finalVideoPreview: `projects/${projectId}/media/final/1-cut-proxy.mp4`,
      })
      .where('id', '=', projectId)
      .execute();
    return { email, session, organizationId, projectId };
  }

  async function newAdmin(): Promise<{ id: number; email: string; session: Headers }> {
    const email = `${unique('admin')}@example.com`;
    const created = await call('POST', '/users', superadmin, { email, firstName: 'Ada', lastName: 'Admin', role: 'Admin' });
    expect(created.statusCode, created.body).toBe(201);
    return { id: created.json<{ id: number }>().id, email, session: await resetPassword(email, DEMO_PASSWORD) };
  }

  const impersonate = async (admin: Headers, organizationId: number) => {
    const response = await call('GET', `/organizations/${organizationId}/admin/login`, admin);
    expect(response.statusCode, response.body).toBe(200);
    return bearer(response.json<{ token: string }>().token);
  };

  /** The preview link the project answer carries for this session. */
  const previewLink = async (headers: Headers, projectId: number) => {
    const response = await call('GET', `/projects/${projectId}`, headers);
    expect(response.statusCode, response.body).toBe(200);
    const link = response.json<{ finalVideoPreview: string }>().finalVideoPreview;
    expect(link).toMatch(/^\/api\/v1\/media\/[^/]+\/preview\.mp4$/);
    return link;
  };
  /** 503: the link is honoured (the preview is still being processed: no media job ran here). */
  const HONOURED = 503;
  const status = async (link: string) => (await call('GET', link)).statusCode;

  it("a user's password reset ends the media links of their older sessions", async () => {
    const owner = await ownerWithReleasedVersion();
    const link = await previewLink(owner.session, owner.projectId);
    expect(await previewLink(owner.session, owner.projectId)).toBe(link);
    expect(await status(link)).toBe(HONOURED);

    const fresh = await resetPassword(owner.email, 'second-password');
    expect(await status(link)).toBe(404);
    const renewed = await previewLink(fresh, owner.projectId);
    expect(renewed).not.toBe(link);
    expect(await status(renewed)).toBe(HONOURED);

    // Disabled: no link of theirs works, the new session's neither.
    const ownerId = (await usersRepo(server.db).findByEmail(owner.email))!.id;
    await server.db.updateTable('users').set({ isEnabled: false }).where('id', '=', ownerId).execute();
    expect(await status(renewed)).toBe(404);
  });

  it("links minted while impersonating end with the admin's disable or password reset; the owner's stay", async () => {
    const owner = await ownerWithReleasedVersion();
    const ownLink = await previewLink(owner.session, owner.projectId);

    const admin = await newAdmin();
    const asAdmin = await previewLink(await impersonate(admin.session, owner.organizationId), owner.projectId);
    expect(asAdmin).not.toBe(ownLink);
    expect(await status(asAdmin)).toBe(HONOURED);
    expect((await call('PATCH', `/users/${admin.id}`, superadmin, { isEnabled: 0 })).statusCode).toBe(200);
    expect(await status(asAdmin)).toBe(404);
    // Enabling the admin again does not revive it: the disable raised their session version.
    expect((await call('PATCH', `/users/${admin.id}`, superadmin, { isEnabled: 1 })).statusCode).toBe(200);
    expect(await status(asAdmin)).toBe(404);
    expect(await status(ownLink)).toBe(HONOURED);

    const other = await newAdmin();
    const otherLink = await previewLink(await impersonate(other.session, owner.organizationId), owner.projectId);
    expect(await status(otherLink)).toBe(HONOURED);
    await resetPassword(other.email, 'admin-second-password');
    expect(await status(otherLink)).toBe(404);
    expect(await status(ownLink)).toBe(HONOURED);
  });

  it('a link of the old form answers 410, asking for a reload', async () => {
    const expires = Math.floor(Date.now() / 1000 + 3600).toString(36);
    const key = createHmac('sha256', server.config.jwtSecret).update('cutdesk media links v1').digest();
    const body = `1.1.${expires}`;
    const response = await call('GET', `/media/${body}.${createHmac('sha256', key).update(body).digest('base64url').slice(0, 32)}/preview.mp4`);
    expect(response.statusCode).toBe(410);
    expect(response.json().message).toMatch(/Reload/);
  });
});
