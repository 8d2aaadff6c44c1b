import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, signIn, startTestServer, type TestServer } from '../server/harness.ts';
import { mp4Bytes } from '../support/file-fixtures.ts';
import { finalPreviewReady } from '../server/final-preview.ts';

/**
 * Issue 9, second attack: the customer sees a final video only once staff sent it to review.
 * The status alone is not enough: "Restore" moves any hidden project to ARCHIVED (A§), so hide
 * then restore used to hand the customer unreviewed work, and a revision round kept showing
 * the version the customer had just asked to change as if it were the next one.
 */

type Headers = Record<string, string>;
const BRIEF = { audience: 'Everyone', goal: 'Sign-ups', finalVideoLength: '0-60 seconds', brief: 'Fast cuts.' };
const VERSION_NULLS = { finalVideoPath: null, finalVideoSize: null, finalVideoPreview: null, hdUrl: null, lowResUrl: null, reviewLink: null };

describe.each(DATABASES)('released versions on $name', ({ url }) => {
  let server: TestServer;
  let admin: Headers;
  let owner: Headers;
  let organizationId: number;
  let editorId: number;
  const call = (method: 'GET' | 'POST', path: string, headers: Headers, payload?: object) =>
    server.app.inject({ method, url: `/api/v1${path}`, headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    server = await startTestServer(url, { storage: true });
    admin = await signIn(server.app, 'admin@demo.cutdesk.test');
    owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    organizationId = (await server.db.selectFrom('organizations').select('id').where('name', '=', 'Demo Studio').executeTakeFirstOrThrow()).id;
    editorId = (await server.db.selectFrom('users').select('id').where('email', '=', 'editor@demo.cutdesk.test').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => server?.close());

  /** A project in editing whose editors already put a cut in place (not sent to review). */
  async function projectInEditing(name: string): Promise<number> {
    const created = await call('POST', `/organizations/${organizationId}/projects`, owner, { name, ...BRIEF });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: number }>().id;
    await server.db
      .updateTable('projects')
      .set({
        status: 'IN_EDITING',
        editorId,
        latestSubmittedAt: new Date(),
        finalVideoPath: `projects/${id}/final/1-cut.mp4`,
        finalVideoSize: 1234,
        finalVideoPreview: `projects/${id}/media/final/1-cut-proxy.mp4`,
        reviewLink: 'https://review.example.com/unreleased',
      })
      .where('id', '=', id)
      .execute();
    // Its preview is made (issue 36: send to review waits for it).
    await finalPreviewReady(server.db, id);
    return id;
  }
  const read = async (id: number) => (await call('GET', `/projects/${id}`, owner)).json<Record<string, unknown> & { status: { name: string } }>();

  it('hide then restore leaves an unreviewed cut hidden from the customer', async () => {
    const id = await projectInEditing('Hidden then restored');
    expect((await call('POST', `/projects/${id}/hide`, admin)).statusCode).toBe(200);
    expect((await call('POST', `/projects/${id}/restore`, admin)).statusCode).toBe(200);
    // Restore returns the project to the status it had (issue 12): in editing, the cut still unreleased.
    expect(await read(id)).toMatchObject({ status: { name: 'IN_EDITING' }, ...VERSION_NULLS });
    // One hidden before that status was remembered (migration 0011) is restored to ARCHIVED, as A§4 says.
    expect((await call('POST', `/projects/${id}/hide`, admin)).statusCode).toBe(200);
    await server.db.updateTable('projects').set({ statusBeforeHidden: null }).where('id', '=', id).execute();
    expect((await call('POST', `/projects/${id}/restore`, admin)).statusCode).toBe(200);
    const seen = await read(id);
    expect(seen.status.name).toBe('ARCHIVED');
    expect(seen).toMatchObject(VERSION_NULLS);
    expect((await call('POST', `/projects/${id}/links`, owner, { name: '1-cut.mp4' })).statusCode).toBe(404);
    // Staff still see their work.
    expect((await call('GET', `/projects/${id}`, admin)).json()).toMatchObject({ finalVideoPath: `projects/${id}/final/1-cut.mp4` });
  });

  it('a new cut delivered after approval waits for restore-to-review; one delivered during review replaces the reviewed one', async () => {
    const id = await projectInEditing('Recut after approval');
    expect((await call('POST', `/projects/${id}/submit`, admin)).statusCode).toBe(200);
    const deliver = async (name: string) => {
      await server.app.ctx.storage.putObject(`projects/${id}/final/${name}`, mp4Bytes(4096), 'video/mp4');
      const registered = await call('POST', `/projects/${id}/deliverable`, admin, { path: `projects/${id}/final`, name });
      expect(registered.statusCode, registered.body).toBe(200);
    };
    // During review: the new cut is the one under review.
    await deliver('2-cut.mp4');
    expect(await read(id)).toMatchObject({ finalVideoPath: `projects/${id}/final/2-cut.mp4` });
    // Approved, then a recut: not the customer's until staff restore the project to review.
    expect((await call('POST', `/projects/${id}/approve`, owner)).statusCode).toBe(200);
    await deliver('3-recut.mp4');
    expect(await read(id)).toMatchObject(VERSION_NULLS);
    expect((await call('POST', `/projects/${id}/links`, owner, { name: '3-recut.mp4' })).statusCode).toBe(404);
    expect((await call('POST', `/projects/${id}/restore_to_review`, admin)).statusCode).toBe(200);
    expect(await read(id)).toMatchObject({ finalVideoPath: `projects/${id}/final/3-recut.mp4` });
  });

  it('a version sent to review stays visible through hide and restore; a revision round withdraws it until the next one is sent', async () => {
    const id = await projectInEditing('Reviewed then revised');
    expect((await call('POST', `/projects/${id}/submit`, admin)).statusCode).toBe(200);
    expect(await read(id)).toMatchObject({ finalVideoPath: `projects/${id}/final/1-cut.mp4`, reviewLink: 'https://review.example.com/unreleased' });

    // The customer asks for changes: back to editing, and the cut they rejected is not shown as the next version.
    const revision = await call('POST', `/projects/${id}/submit`, owner);
    expect(revision.statusCode, revision.body).toBe(200);
    expect((await read(id)).status.name).toBe('IN_EDITING');
    expect(await read(id)).toMatchObject(VERSION_NULLS);
    // Hidden and restored meanwhile: still not released.
    expect((await call('POST', `/projects/${id}/hide`, admin)).statusCode).toBe(200);
    expect((await call('POST', `/projects/${id}/restore`, admin)).statusCode).toBe(200);
    expect(await read(id)).toMatchObject(VERSION_NULLS);
  });
});
