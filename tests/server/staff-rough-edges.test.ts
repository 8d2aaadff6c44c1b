import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_STATUS_LABELS, statusWorkflowRank, type ProjectStatus } from '../../src/domain/project-status.ts';
import { FIELD_MESSAGES } from '../../src/domain/validation.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from './harness.ts';

/** Issue 12, staff portal rough edges held on the server: Restore, status sort, trial links, link limits. */

type Headers = Record<string, string>;
const BRIEF = { audience: 'Everyone', goal: 'Sign-ups', finalVideoLength: '0-60 seconds', brief: 'Fast cuts.' };

describe.each(DATABASES)('staff rough edges on $name', ({ url }) => {
  let server: TestServer;
  let admin: Headers;
  let owner: Headers;
  let organizationId: number;
  let editorId: number;
  const call = (method: 'GET' | 'POST' | 'PATCH', path: string, headers: Headers, payload?: object) => server.app.inject({ method, url: `/api/v1${path}`, headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    server = await startTestServer(url);
    admin = await signIn(server.app, 'admin@demo.cutdesk.test');
    owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    organizationId = (await server.db.selectFrom('organizations').select('id').where('name', '=', 'Demo Studio').executeTakeFirstOrThrow()).id;
    editorId = (await server.db.selectFrom('users').select('id').where('email', '=', 'editor@demo.cutdesk.test').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => server?.close());

  async function inEditing(name: string): Promise<number> {
    const created = await call('POST', `/organizations/${organizationId}/projects`, owner, { name, ...BRIEF });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: number }>().id;
    expect((await call('POST', `/projects/${id}/submit`, owner)).statusCode).toBe(200);
    expect((await call('POST', `/projects/${id}/assign-editor`, admin, { editorId })).statusCode).toBe(200);
    return id;
  }
  const read = async (id: number) => (await call('GET', `/projects/${id}`, admin)).json<{ status: { name: ProjectStatus }; noReviews: number; pausedAt: string | null; totalPausedMinutes: number }>();

  it('restores a deleted paused project to PAUSED, with its version, and says so on the Deleted tab', async () => {
    const id = await inEditing('Paused then deleted');
    await server.db.updateTable('projects').set({ noReviews: 2, finalVideoPreview: `projects/${id}/media/final/cut-proxy.mp4` }).where('id', '=', id).execute();
    expect((await call('POST', `/projects/${id}/pause`, admin)).statusCode).toBe(200);
    const paused = await read(id);
    expect((await call('POST', `/projects/${id}/hide`, admin)).json().status.name).toBe('HIDDEN');
    const hidden = (await call('GET', '/projects?hidden=true&limit=200', admin)).json().data.projects as { id: number; restoresTo?: ProjectStatus }[];
    expect(hidden.find((row) => row.id === id)?.restoresTo).toBe('PAUSED');
    const restored = await call('POST', `/projects/${id}/restore`, admin);
    expect(restored.json().status.name).toBe('PAUSED');
    expect(await read(id)).toMatchObject({ status: { name: 'PAUSED' }, noReviews: 2, pausedAt: paused.pausedAt, totalPausedMinutes: paused.totalPausedMinutes });
    expect((await server.db.selectFrom('projects').select('statusBeforeHidden').where('id', '=', id).executeTakeFirstOrThrow()).statusBeforeHidden).toBeNull();
  });

  it('restores a project in editing to editing, its timer running again without the time it spent deleted', async () => {
    const id = await inEditing('Editing then deleted');
    expect((await call('POST', `/projects/${id}/hide`, admin)).statusCode).toBe(200);
    expect((await read(id)).pausedAt).not.toBeNull();
    expect((await call('POST', `/projects/${id}/restore`, admin)).json().status.name).toBe('IN_EDITING');
    expect((await read(id)).pausedAt).toBeNull();
  });

  it('sorts the board by status in workflow order, both ways', async () => {
    for (const order of ['asc', 'desc'] as const) {
      const rows = (await call('GET', `/projects?active=true&sort=status&order=${order}&limit=200`, admin)).json().data.projects as { status: { name: ProjectStatus } }[];
      const ranks = rows.map((row) => statusWorkflowRank(row.status.name));
      expect(new Set(rows.map((row) => STAFF_STATUS_LABELS[row.status.name])).size).toBeGreaterThan(2);
      expect(ranks).toEqual([...ranks].sort((a, b) => (order === 'asc' ? a - b : b - a)));
    }
  });

  it("gives each trial user a registration link of their own, with no secret in it", async () => {
    const rows = (await call('GET', '/users/trial?start=0&limit=20', admin)).json() as { email: string; link: string }[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const link = new URL(row.link);
      expect(link.pathname).toBe('/login/user');
      expect(link.searchParams.get('email')).toBe(row.email);
      expect(link.searchParams.has('code')).toBe(false);
    }
  });

  it('names the limit of a link that is too long', async () => {
    const id = await inEditing('Long links');
    const link = (length: number) => `https://example.com/${'x'.repeat(length - 20)}`;
    expect((await call('PATCH', `/projects/${id}`, admin, { reviewLink: link(200) })).statusCode).toBe(200);
    expect((await call('PATCH', `/projects/${id}`, admin, { reviewLink: link(201) })).json().fields.reviewLink).toBe(FIELD_MESSAGES.linkTooLong('feedback'));
    expect((await call('PATCH', `/projects/${id}`, admin, { editorAssetsLink: link(255) })).statusCode).toBe(200);
    expect((await call('PATCH', `/projects/${id}`, admin, { editorAssetsLink: link(256) })).json().fields.editorAssetsLink).toBe(FIELD_MESSAGES.linkTooLong('asset'));
    expect((await call('PATCH', `/organizations/${organizationId}`, admin, { assetsLink: link(256) })).json().fields.assetsLink).toBe(FIELD_MESSAGES.linkTooLong('asset'));
  });
});
