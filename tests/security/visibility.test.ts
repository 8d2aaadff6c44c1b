import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_PAGE_MAX } from '../../src/domain/contract/projects.ts';
import { signMediaToken } from '../../server/media/media-links.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from '../server/harness.ts';
import { finalPreviewReady } from '../server/final-preview.ts';

/**
 * Issue 9, visibility: a deleted organization's projects go with it (staff lists, 404 on the
 * project calls); customers see a version only once it is sent to review and never the
 * editors' internal links; GET organizations/{id}/projects is paged.
 */

type Headers = Record<string, string>;
const BRIEF = { audience: 'Everyone', goal: 'Sign-ups', finalVideoLength: '0-60 seconds', brief: 'Fast cuts.' };
let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter += 1)}`;

describe.each(DATABASES)('visibility on $name', ({ url }) => {
  let server: TestServer;
  let superadmin: Headers;
  let owner: Headers;
  let demoId: number;
  let editorId: number;
  const call = (method: 'GET' | 'POST' | 'DELETE' | 'PATCH', path: string, headers: Headers = {}, payload?: object) =>
    server.app.inject({ method, url: `/api/v1${path}`, headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    server = await startTestServer(url);
    superadmin = await signIn(server.app, 'superadmin@demo.cutdesk.test');
    owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    demoId = (await server.db.selectFrom('organizations').select('id').where('name', '=', 'Demo Studio').executeTakeFirstOrThrow()).id;
    editorId = (await server.db.selectFrom('users').select('id').where('email', '=', 'editor@demo.cutdesk.test').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await server?.close();
  });

  async function projectIn(headers: Headers, organizationId: number, name = unique('Visible')): Promise<number> {
    const created = await call('POST', `/organizations/${organizationId}/projects`, headers, { name: name.slice(0, 40), ...BRIEF });
    expect(created.statusCode, created.body).toBe(201);
    return created.json<{ id: number }>().id;
  }

  it("a deleted organization's projects leave the staff dashboard and answer 404", async () => {
    const email = `${unique('gone')}@example.com`;
    const registered = await call('POST', '/register', {}, { email, password: 'gone-password', firstName: 'Go', lastName: 'Ne', phone: '5551234' });
    const goneOwner = { authorization: `Bearer ${registered.json<{ token: string }>().token}` };
    const organizationId = (await call('POST', '/organizations', goneOwner, { name: unique('Gone Org') })).json<{ id: number }>().id;
    const projectId = await projectIn(goneOwner, organizationId);
    await server.db.updateTable('projects').set({ status: 'WAITING_FOR_EDITOR', latestSubmittedAt: new Date() }).where('id', '=', projectId).execute();
    const dashboardIds = async (sort: string) =>
      (await call('GET', `/projects?active=true&limit=200&sort=${sort}`, superadmin))
        .json<{ data: { projects: Array<{ id: number }> } }>()
        .data.projects.map((p) => p.id);
    expect(await dashboardIds('createdAt')).toContain(projectId);

    expect((await call('DELETE', `/organizations/${organizationId}`, superadmin)).statusCode).toBe(204);
    expect(await dashboardIds('createdAt')).not.toContain(projectId);
    expect(await dashboardIds('timer')).not.toContain(projectId);
    expect((await call('GET', `/projects/${projectId}`, superadmin)).statusCode).toBe(404);
    const assign = await call('POST', `/projects/${projectId}/assign-editor`, superadmin, { editorId });
    expect(assign.statusCode).toBe(404);
    expect(assign.json().message).toEqual(expect.any(String));
    expect((await call('GET', `/organizations/${organizationId}/projects`, superadmin)).statusCode).toBe(404);
    // Its owner's session ended with the organization.
    expect((await call('GET', '/me', goneOwner)).statusCode).toBe(401);
  });

  it('customers see the final video and its links only from review on, and never editorAssetsLink', async () => {
    const projectId = await projectIn(owner, demoId);
    const version = {
      status: 'IN_EDITING' as const,
      editorId,
      latestSubmittedAt: new Date(),
      finalVideoPath: `projects/${projectId}/final/1-cut.mp4`,
      finalVideoSize: 1234,
      finalVideoPreview: `projects/${projectId}/media/final/1-cut-proxy.mp4`,
      reviewLink: 'https://review.example.com/v1',
      editorAssetsLink: 'https://drive.example.com/internal',
    };
    await server.db.updateTable('projects').set(version).where('id', '=', projectId).execute();
    const read = async (headers: Headers) => (await call('GET', `/projects/${projectId}`, headers)).json<Record<string, unknown>>();
    const listed = async (headers: Headers, query = '') =>
      (await call('GET', `/organizations/${demoId}/projects${query}`, headers))
        .json<{ data: { projects: Array<Record<string, unknown>> } }>()
        .data.projects.find((p) => p.id === projectId);

    for (const seen of [await read(owner), await listed(owner), await listed(owner, '?section=editing')]) {
      expect(seen).toMatchObject({
        finalVideoPath: null,
        finalVideoSize: null,
        finalVideoPreview: null,
        finalPreviewState: 'none',
        hdUrl: null,
        lowResUrl: null,
        reviewLink: null,
        editorAssetsLink: null,
      });
    }
    // Staff see their work in progress.
    expect(await read(superadmin)).toMatchObject({
      finalVideoPath: version.finalVideoPath,
      editorAssetsLink: version.editorAssetsLink,
      reviewLink: version.reviewLink,
    });
    // An answer of a customer's own call during editing (rename) leaves them out too.
    const renamed = await call('PATCH', `/projects/${projectId}`, owner, { name: 'Renamed in editing' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ finalVideoPath: null, editorAssetsLink: null });

    // Nor can they fetch it another way: a download link, or a media link of their own.
    const sessionOf = async (email: string) => {
      const user = await server.db.selectFrom('users').select(['id', 'sessionVersion']).where('email', '=', email).executeTakeFirstOrThrow();
      return { userId: user.id, sessionVersion: user.sessionVersion, impersonatorId: null, impersonatorSessionVersion: null };
    };
    const mediaAs = async (email: string) => call('GET', `/media/${signMediaToken(server.config.jwtSecret, projectId, await sessionOf(email))}/thumbnail.jpg`);
    for (const name of ['1-cut.mp4', '1-cut_proxy.mp4']) expect((await call('POST', `/projects/${projectId}/links`, owner, { name })).statusCode).toBe(404);
    expect((await call('POST', `/projects/${projectId}/links`, superadmin, { name: '1-cut.mp4' })).statusCode).toBe(200);
    expect((await mediaAs('owner@demo.cutdesk.test')).statusCode).toBe(404);
    // Staff reach it (here: still being processed, as no media job has run).
    expect((await mediaAs('superadmin@demo.cutdesk.test')).statusCode).toBe(503);

    // Sent to review once its preview is made (issue 36): the version is the customer's to see; the internal link still is not.
    await finalPreviewReady(server.db, projectId);
    const sent = await call('POST', `/projects/${projectId}/submit`, superadmin);
    expect(sent.statusCode, sent.body).toBe(200);
    expect((await call('POST', `/projects/${projectId}/links`, owner, { name: '1-cut.mp4' })).statusCode).toBe(200);
    expect((await mediaAs('owner@demo.cutdesk.test')).statusCode).toBe(503);
    expect(await read(owner)).toMatchObject({
      finalVideoPath: version.finalVideoPath,
      finalVideoSize: 1234,
      reviewLink: version.reviewLink,
      editorAssetsLink: null,
    });
    expect(typeof (await read(owner)).finalVideoPreview).toBe('string');
  });

  it('GET organizations/{id}/projects is paged, by board section too, with the total', async () => {
    const email = `${unique('pager')}@example.com`;
    const registered = await call('POST', '/register', {}, { email, password: 'pager-password', firstName: 'Pa', lastName: 'Ger', phone: '5551234' });
    const pager = { authorization: `Bearer ${registered.json<{ token: string }>().token}` };
    const organizationId = (await call('POST', '/organizations', pager, { name: unique('Pager Org') })).json<{ id: number }>().id;
    const ids: number[] = [];
    for (let index = 0; index < 7; index += 1) ids.push(await projectIn(pager, organizationId, `Page ${index}`));
    await server.db.updateTable('projects').set({ status: 'IN_EDITING' }).where('id', 'in', ids.slice(0, 3)).execute();
    await server.db.updateTable('projects').set({ status: 'IN_REVIEW' }).where('id', '=', ids[3]!).execute();
    const page = async (query: string) => {
      const response = await call('GET', `/organizations/${organizationId}/projects${query}`, pager);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ data: { projects: Array<{ id: number; status: { name: string } }>; total: number } }>().data;
    };
    const first = await page('?limit=2');
    const second = await page('?start=2&limit=2');
    expect(first.total).toBe(7);
    expect(first.projects.map((p) => p.id)).toEqual([ids[6], ids[5]]);
    expect(second.projects.map((p) => p.id)).toEqual([ids[4], ids[3]]);
    const editing = await page('?section=editing&limit=2');
    expect(editing.total).toBe(3);
    expect(editing.projects.every((p) => p.status.name === 'IN_EDITING')).toBe(true);
    expect((await page('?section=needsReview')).projects.map((p) => p.id)).toEqual([ids[3]]);
    expect((await page('?section=assembly')).total).toBe(3);
    // Without a limit the default page; a limit past the maximum is a 400, not a huge answer.
    expect((await page('')).projects).toHaveLength(7);
    const tooMany = await call('GET', `/organizations/${organizationId}/projects?limit=${PROJECT_PAGE_MAX + 1}`, pager);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toEqual(expect.any(String));
    expect((await call('GET', `/organizations/${organizationId}/projects?section=nope`, pager)).statusCode).toBe(400);
  });
});
