import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDIT_MESSAGES } from '../../src/domain/messages.ts';
import { RULE_MESSAGES } from '../../src/domain/project-rules.ts';
import { STAFF_STATUS_LABELS, statusWorkflowRank, type ProjectStatus } from '../../src/domain/project-status.ts';
import { REVIEW_DAY_MS, REVIEW_WINDOW_MESSAGES, reviewClosesAt, reviewDaysLeft } from '../../src/domain/review-window.ts';
import { FIELD_MESSAGES } from '../../src/domain/validation.ts';
import { derivedKey } from '../../src/domain/media.ts';
import { enqueueFinalVideoMedia } from '../../server/media/pipeline.ts';
import { completeClosedReviews } from '../../server/services/review-auto-complete.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from './harness.ts';
import { finalPreviewReady } from './final-preview.ts';

const BRIEF = { name: 'Launch film', audience: 'Investors', goal: 'Raise the round', finalVideoLength: '1-2 minutes', brief: 'A short film about our launch.' };

describe.each(DATABASES)('projects API on $name', ({ url }) => {
  let server: TestServer;
  let owner: { authorization: string };
  let user: { authorization: string };
  let admin: { authorization: string };
  let editor: { authorization: string };
  let outsider: { authorization: string };
  let organizationId: number;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, headers: Record<string, string> = {}, payload?: unknown) =>
    server.app.inject({ method, url: `/api/v1${path}`, payload: payload as object, headers });
  const idOf = async (name: string) => (await server.db.selectFrom('projects').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const create = async (headers = owner, body: object = BRIEF) =>
    (await call('POST', `/organizations/${organizationId}/projects`, headers, body)).json().id as number;
  const credits = async () =>
    await server.db.selectFrom('credits').select(['usedCredits', 'activeCredits']).where('organizationId', '=', organizationId).executeTakeFirstOrThrow();

  beforeAll(async () => {
    server = await startTestServer(url);
    owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    user = await signIn(server.app, 'user@demo.cutdesk.test');
    admin = await signIn(server.app, 'admin@demo.cutdesk.test');
    editor = await signIn(server.app, 'editor@demo.cutdesk.test');
    const registered = await call(
      'POST',
      '/register',
      {},
      { email: 'outsider@example.com', password: 'secret123', firstName: 'Out', lastName: 'Sider', phone: '555' },
    );
    outsider = { authorization: `Bearer ${registered.json().token}` };
    await call('POST', '/organizations', outsider, { name: 'Outsiders Inc' });
    organizationId = (await server.db.selectFrom('organizations').select('id').where('name', '=', 'Demo Studio').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => server?.close());

  describe('create, read, list', () => {
    it('creates an OPENED project from the brief and reads it back', async () => {
      const created = await call('POST', `/organizations/${organizationId}/projects`, user, BRIEF);
      expect(created.statusCode).toBe(201);
      const project = (await call('GET', `/projects/${created.json().id}`, user)).json();
      expect(project).toMatchObject({
        ...BRIEF,
        status: { name: 'OPENED' },
        noReviews: 0,
        reviewDaysLeft: 0,
        organization: { id: organizationId, name: 'Demo Studio' },
        user: { firstName: 'Umar' },
        editor: null,
      });
    });

    it.each([
      ['name', { name: '' }, FIELD_MESSAGES.required],
      ['name', { name: 'x'.repeat(44) }, FIELD_MESSAGES.projectNameTooLong],
      ['audience', { audience: 'x'.repeat(51) }, FIELD_MESSAGES.audienceTooLong],
      ['goal', { goal: ' ' }, FIELD_MESSAGES.required],
      ['finalVideoLength', { finalVideoLength: '3 hours' }, FIELD_MESSAGES.lengthInvalid],
      ['brief', { brief: undefined }, FIELD_MESSAGES.required],
    ])('refuses a bad %s with its message', async (field, change, message) => {
      const response = await call('POST', `/organizations/${organizationId}/projects`, owner, { ...BRIEF, ...change });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields[field]).toBe(message);
    });

    it('lists the visible projects under data.projects, and the library by type', async () => {
      const all = (await call('GET', `/organizations/${organizationId}/projects`, owner))
        .json()
        .data.projects.map((p: { status: { name: string } }) => p.status.name);
      expect(all).toEqual(expect.arrayContaining(['OPENED', 'WAITING_FOR_EDITOR', 'IN_EDITING', 'IN_REVIEW', 'PAUSED', 'APPROVED', 'ARCHIVED']));
      expect(all).not.toContain('HIDDEN');
      const archived = (await call('GET', `/organizations/${organizationId}/projects?type=Archived`, owner)).json().data.projects;
      expect(archived.map((p: { status: { name: string } }) => p.status.name)).toEqual(['ARCHIVED']);
      expect((await call('GET', `/organizations/${organizationId}/projects?type=Bogus`, owner)).statusCode).toBe(400);
    });

    it('hides every project of another organization (404), and refuses anonymous callers (401)', async () => {
      const id = await idOf('Spring launch teaser');
      for (const [method, path] of [
        ['GET', `/projects/${id}`],
        ['PATCH', `/projects/${id}`],
        ['DELETE', `/projects/${id}`],
        ['POST', `/projects/${id}/submit`],
        ['POST', `/projects/${id}/approve`],
        ['POST', `/projects/${id}/duplicate`],
        ['GET', `/organizations/${organizationId}/projects`],
        ['POST', `/organizations/${organizationId}/projects`],
      ] as const) {
        expect((await call(method, path, outsider, BRIEF)).statusCode, `${method} ${path} as outsider`).toBe(404);
        expect((await call(method, path, {}, BRIEF)).statusCode, `${method} ${path} anonymous`).toBe(401);
      }
    });

    it('lets staff read any project but not create one for a customer', async () => {
      expect((await call('GET', `/projects/${await idOf('Spring launch teaser')}`, editor)).statusCode).toBe(200);
      expect((await call('POST', `/organizations/${organizationId}/projects`, admin, BRIEF)).statusCode).toBe(403);
    });
  });

  describe('editing the brief and the name', () => {
    it('edits the brief while OPENED and refuses it afterwards', async () => {
      const id = await create();
      const edited = await call('PATCH', `/projects/${id}`, owner, { brief: 'New brief', audience: 'Everyone' });
      expect(edited.statusCode).toBe(200);
      expect(edited.json()).toMatchObject({ brief: 'New brief', audience: 'Everyone', name: BRIEF.name });
      const inEditing = await idOf('Product walkthrough');
      const refused = await call('PATCH', `/projects/${inEditing}`, owner, { brief: 'Too late' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(RULE_MESSAGES.notInStatus('edited', 'in editing'));
    });

    it('renames until the project is finished', async () => {
      expect((await call('PATCH', `/projects/${await idOf('Product walkthrough')}`, owner, { name: 'Walkthrough v2' })).json().name).toBe('Walkthrough v2');
      expect((await call('PATCH', `/projects/${await idOf('Holiday greeting')}`, owner, { name: 'Nope' })).statusCode).toBe(409);
      expect((await call('PATCH', `/projects/${await idOf('Walkthrough v2')}`, owner, { name: 'x'.repeat(44) })).json().fields.name).toBe(
        FIELD_MESSAGES.projectNameTooLong,
      );
    });

    it('lets staff set one link, an editor not the organization-assets link, and customers no link', async () => {
      const id = await idOf('Walkthrough v2');
      expect((await call('PATCH', `/projects/${id}`, admin, { collaborationLink: 'https://frame.example/x' })).json().collaborationLink).toBe(
        'https://frame.example/x',
      );
      expect((await call('PATCH', `/projects/${id}`, admin, { collaborationLink: null })).json().collaborationLink).toBeNull();
      expect((await call('PATCH', `/projects/${id}`, admin, { reviewLink: 'ftp://nope' })).json().fields.reviewLink).toBe(FIELD_MESSAGES.linkInvalid);
      const editorAssets = await call('PATCH', `/projects/${id}`, editor, { assetsLink: 'https://drive.example/a' });
      expect(editorAssets.statusCode).toBe(403);
      expect(editorAssets.json().message).toBe(RULE_MESSAGES.editorAssetsLink);
      expect((await call('PATCH', `/projects/${id}`, editor, { editorAssetsLink: 'https://drive.example/e' })).statusCode).toBe(200);
      expect((await call('PATCH', `/projects/${id}`, owner, { reviewLink: 'https://x.example' })).statusCode).toBe(403);
    });
  });

  describe('customer transitions', () => {
    it('sends to editing, consuming one credit', async () => {
      const id = await create();
      const before = await credits();
      const sent = await call('POST', `/projects/${id}/submit`, user);
      expect(sent.statusCode).toBe(200);
      expect(sent.json()).toMatchObject({ status: { name: 'WAITING_FOR_EDITOR' }, latestSubmittedAt: expect.any(String) });
      expect((await credits()).usedCredits).toBe(before.usedCredits + 1);
      expect((await call('POST', `/projects/${id}/submit`, user)).statusCode).toBe(409);
      expect((await credits()).usedCredits).toBe(before.usedCredits + 1);
    });

    it('refuses to send without credits, and leaves the project as it was', async () => {
      const id = await create();
      await server.db
        .updateTable('credits')
        .set((eb) => ({ usedCredits: eb.ref('activeCredits') }))
        .where('organizationId', '=', organizationId)
        .execute();
      const refused = await call('POST', `/projects/${id}/submit`, owner);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(CREDIT_MESSAGES.noCredits);
      expect((await call('GET', `/projects/${id}`, owner)).json().status.name).toBe('OPENED');
      await server.db.updateTable('credits').set({ usedCredits: 0 }).where('organizationId', '=', organizationId).execute();
    });

    it('refuses to send an incomplete brief', async () => {
      const id = await create();
      await server.db.updateTable('projects').set({ goal: '' }).where('id', '=', id).execute();
      const refused = await call('POST', `/projects/${id}/submit`, owner);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(CREDIT_MESSAGES.briefIncomplete);
    });

    it('asks for changes on a project in review, then approves the next version', async () => {
      const id = await idOf('Quarterly highlights');
      const revision = await call('POST', `/projects/${id}/submit`, owner);
      expect(revision.json().status.name).toBe('IN_EDITING');
      expect((await call('POST', `/projects/${id}/approve`, owner)).statusCode).toBe(409);
      await finalPreviewReady(server.db, id);
      const review = await call('POST', `/projects/${id}/submit`, admin);
      expect(review.json()).toMatchObject({ status: { name: 'IN_REVIEW' }, noReviews: 2, reviewDaysLeft: 7 });
      const approved = await call('POST', `/projects/${id}/approve`, user);
      expect(approved.json().status.name).toBe('APPROVED');
    });

    it('deletes only Assembly projects', async () => {
      const id = await create();
      expect((await call('DELETE', `/projects/${id}`, owner)).statusCode).toBe(204);
      expect((await call('GET', `/projects/${id}`, owner)).statusCode).toBe(404);
      expect((await call('DELETE', `/projects/${await idOf('Holiday greeting')}`, owner)).statusCode).toBe(409);
      expect((await call('DELETE', `/projects/${await idOf('Spring launch teaser')}`, admin)).statusCode).toBe(403);
    });

    it('duplicates the brief and asset records into a new OPENED project', async () => {
      const source = await idOf('Holiday greeting');
      await server.db
        .insertInto('assets')
        .values({
          projectId: source,
          name: 'clip.mp4',
          size: 1000,
          type: 'INTERVIEW_CLIP',
          path: 'o/1/clip.mp4',
          previewPath: null,
          crc32: 0xcafe,
          deletedAt: null,
        })
        .execute();
      const duplicated = await call('POST', `/projects/${source}/duplicate`, user);
      expect(duplicated.statusCode).toBe(201);
      const copy = (await call('GET', `/projects/${duplicated.json().id}`, user)).json();
      expect(copy).toMatchObject({ name: 'Holiday greeting (copy)', status: { name: 'OPENED' }, brief: 'Holiday greeting from the whole team.' });
      const assets = await server.db.selectFrom('assets').select(['path', 'crc32']).where('projectId', '=', copy.id).execute();
      // The copy shares the object, so its CRC-32 too (raw zips of the copy take it).
      expect(assets).toEqual([{ path: 'o/1/clip.mp4', crc32: 0xcafe }]);
    });
  });

  describe('staff transitions', () => {
    it('assigns an editor, which starts editing a waiting project', async () => {
      const id = await idOf('Customer story: Northwind');
      const editorId = (await server.db.selectFrom('users').select('id').where('role', '=', 'EDITOR').executeTakeFirstOrThrow()).id;
      expect((await call('POST', `/projects/${id}/assign-editor`, admin, { editorId: 99999 })).statusCode).toBe(400);
      expect((await call('POST', `/projects/${id}/assign-editor`, editor, { editorId })).statusCode).toBe(403);
      const assigned = await call('POST', `/projects/${id}/assign-editor`, admin, { editorId });
      expect(assigned.json()).toMatchObject({ status: { name: 'IN_EDITING' }, editor: { id: editorId } });
      expect((await call('POST', `/projects/${await idOf('Spring launch teaser')}/assign-editor`, admin, { editorId })).statusCode).toBe(409);
    });

    it('takes the editor off a project being edited, which waits for the next one (issue 36)', async () => {
      const id = await idOf('Customer story: Northwind');
      expect((await call('POST', `/projects/${id}/unassign-editor`, editor)).statusCode).toBe(403);
      const unassigned = await call('POST', `/projects/${id}/unassign-editor`, admin);
      expect(unassigned.json()).toMatchObject({ status: { name: 'WAITING_FOR_EDITOR' }, editor: null });
      expect((await call('POST', `/projects/${id}/unassign-editor`, admin)).statusCode).toBe(409);
      const editorId = (await server.db.selectFrom('users').select('id').where('role', '=', 'EDITOR').executeTakeFirstOrThrow()).id;
      expect((await call('POST', `/projects/${id}/assign-editor`, admin, { editorId })).json()).toMatchObject({
        status: { name: 'IN_EDITING' },
        editor: { id: editorId },
      });
    });

    it('pauses and resumes, keeping the paused minutes', async () => {
      const id = await idOf('Customer story: Northwind');
      const paused = await call('POST', `/projects/${id}/pause`, admin);
      expect(paused.json()).toMatchObject({ status: { name: 'PAUSED' }, pausedAt: expect.any(String) });
      expect((await call('POST', `/projects/${id}/pause`, admin)).statusCode).toBe(409);
      expect((await call('POST', `/projects/${id}/resume`, editor)).statusCode).toBe(403);
      const resumed = await call('POST', `/projects/${id}/resume`, admin);
      expect(resumed.json()).toMatchObject({ status: { name: 'IN_EDITING' }, pausedAt: null, totalPausedMinutes: expect.any(Number) });
    });

    it('refuses to send to review without a final preview', async () => {
      const response = await call('POST', `/projects/${await idOf('Customer story: Northwind')}/submit`, admin);
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(RULE_MESSAGES.needsPreview);
    });

    it('issue 36: refuses to send to review while the final video is being processed (409, why), sends it once its preview is ready', async () => {
      const id = await idOf('Customer story: Northwind');
      const project = () => call('GET', `/projects/${id}`, admin).then((r) => r.json());
      const send = () => call('POST', `/projects/${id}/submit`, admin);
      const previewJob = (key: string) =>
        server.db.updateTable('mediaJobs').where('projectId', '=', id).where('kind', '=', 'final.preview').where('sourceKey', '=', key);
      // Staff deliver a cut: registered as the deliverable route does, its media work queued.
      const deliver = async (key: string) => {
        await server.db
          .updateTable('projects')
          .set({ finalVideoPath: key, finalVideoPreview: derivedKey(key, 'proxy') })
          .where('id', '=', id)
          .execute();
        await enqueueFinalVideoMedia(server.app.ctx, id, key);
      };
      const first = `projects/${id}/final/cut-v1.mp4`;
      await deliver(first);
      expect(await project()).toMatchObject({ status: { name: 'IN_EDITING' }, finalPreviewState: 'processing' });
      for (const status of ['queued', 'running'] as const) {
        await previewJob(first).set({ status }).execute();
        const refused = await send();
        expect(refused.statusCode).toBe(409);
        expect(refused.json().message).toBe(RULE_MESSAGES.previewProcessing);
      }
      await previewJob(first).set({ status: 'failed', lastError: 'ffmpeg said no' }).execute();
      expect((await project()).finalPreviewState).toBe('failed');
      expect((await send()).json()).toMatchObject({ message: RULE_MESSAGES.previewFailed });
      await previewJob(first).set({ status: 'done', lastError: null }).execute();
      // A new cut replaces it: the earlier cut's preview says nothing about this one.
      const second = `projects/${id}/final/cut-v2.mp4`;
      await deliver(second);
      expect((await project()).finalPreviewState).toBe('processing');
      expect((await send()).json()).toMatchObject({ message: RULE_MESSAGES.previewProcessing });
      expect((await project()).status.name).toBe('IN_EDITING');
      await previewJob(second).set({ status: 'done' }).execute();
      expect((await project()).finalPreviewState).toBe('ready');
      const sent = await send();
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.json()).toMatchObject({ status: { name: 'IN_REVIEW' }, finalPreviewState: 'ready' });
    });

    it('completes only approved projects with a final video (403 otherwise), hides and restores', async () => {
      const approved = await idOf('Conference recap');
      const refused = await call('POST', `/projects/${approved}/archive`, admin);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(RULE_MESSAGES.archiveNeedsApproval);
      await server.db.updateTable('projects').set({ finalVideoPreview: 'previews/c.mp4' }).where('id', '=', approved).execute();
      expect((await call('POST', `/projects/${approved}/archive`, editor)).statusCode).toBe(403);
      expect((await call('POST', `/projects/${approved}/archive`, admin)).json().status.name).toBe('ARCHIVED');
      expect((await call('POST', `/projects/${approved}/hide`, admin)).json().status.name).toBe('HIDDEN');
      expect((await call('GET', `/projects/${approved}`, owner)).statusCode).toBe(404);
      expect((await call('POST', `/projects/${approved}/restore`, admin)).json().status.name).toBe('ARCHIVED');
    });

    it('restores an approved project to review and sets its review period', async () => {
      const id = await idOf('Quarterly highlights');
      const restored = await call('POST', `/projects/${id}/restore_to_review`, admin);
      expect(restored.json().status.name).toBe('IN_REVIEW');
      expect((await call('PUT', `/projects/${id}/review_period`, admin, { reviewPeriod: -1 })).statusCode).toBe(400);
      expect((await call('PUT', `/projects/${id}/review_period`, editor, { reviewPeriod: 3 })).statusCode).toBe(403);
      expect((await call('PUT', `/projects/${id}/review_period`, admin, { reviewPeriod: 3 })).json()).toMatchObject({ reviewPeriod: 3, reviewDaysLeft: 3 });
    });

    it('completes projects whose review window closed', async () => {
      const id = await idOf('Quarterly highlights');
      await server.db
        .updateTable('projects')
        .set({ reviewStartedAt: new Date(Date.now() - 4 * 86_400_000) })
        .where('id', '=', id)
        .execute();
      expect(await completeClosedReviews(server.db)).toBe(1);
      expect(await completeClosedReviews(server.db)).toBe(0);
      expect((await call('GET', `/projects/${id}`, owner)).json().status.name).toBe('APPROVED');
    });

    it('closes the review window exactly where the domain says, and refuses a period out of range with its message', async () => {
      const id = await idOf('Quarterly highlights');
      expect((await call('POST', `/projects/${id}/restore_to_review`, admin)).json().status.name).toBe('IN_REVIEW');
      const tooLong = await call('PUT', `/projects/${id}/review_period`, admin, { reviewPeriod: 3651 });
      expect(tooLong.statusCode).toBe(400);
      expect(tooLong.json()).toMatchObject({ message: REVIEW_WINDOW_MESSAGES.tooLong, fields: { reviewPeriod: REVIEW_WINDOW_MESSAGES.tooLong } });
      const reviewStartedAt = new Date(Date.now() - 2 * REVIEW_DAY_MS - 3_600_000);
      await server.db.updateTable('projects').set({ reviewStartedAt, reviewPeriod: 3 }).where('id', '=', id).execute();
      const window = { status: 'IN_REVIEW' as const, reviewPeriod: 3, reviewStartedAt };
      expect((await call('GET', `/projects/${id}`, admin)).json().reviewDaysLeft).toBe(reviewDaysLeft(window));
      const closesAt = reviewClosesAt(window)!;
      expect(await completeClosedReviews(server.db, new Date(closesAt.getTime() - 1))).toBe(0);
      expect(await completeClosedReviews(server.db, closesAt)).toBe(1);
      expect((await call('GET', `/projects/${id}`, owner)).json().status.name).toBe('APPROVED');
    });

    it('refuses customer actions to staff and staff actions to customers', async () => {
      const id = await idOf('Hiring video');
      for (const path of ['archive', 'hide', 'restore', 'pause', 'resume', 'restore_to_review']) {
        expect((await call('POST', `/projects/${id}/${path}`, owner)).statusCode, path).toBe(403);
      }
      expect((await call('POST', `/projects/${id}/approve`, admin)).statusCode).toBe(403);
      expect((await call('POST', `/projects/${id}/duplicate`, admin)).statusCode).toBe(403);
    });
  });

  describe('restore, the board sorted by status, link limits (A§4, issue 12 walkthrough)', () => {
    let editorId: number;
    const EDITING_BRIEF = { audience: 'Everyone', goal: 'Sign-ups', finalVideoLength: '0-60 seconds', brief: 'Fast cuts.' };

    beforeAll(async () => {
      editorId = (await server.db.selectFrom('users').select('id').where('email', '=', 'editor@demo.cutdesk.test').executeTakeFirstOrThrow()).id;
    });

    async function inEditing(name: string): Promise<number> {
      const created = await call('POST', `/organizations/${organizationId}/projects`, owner, { name, ...EDITING_BRIEF });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json<{ id: number }>().id;
      expect((await call('POST', `/projects/${id}/submit`, owner)).statusCode).toBe(200);
      expect((await call('POST', `/projects/${id}/assign-editor`, admin, { editorId })).statusCode).toBe(200);
      return id;
    }
    const read = async (id: number) =>
      (await call('GET', `/projects/${id}`, admin)).json<{
        status: { name: ProjectStatus };
        noReviews: number;
        pausedAt: string | null;
        totalPausedMinutes: number;
      }>();

    it('restores a deleted paused project to PAUSED, with its version, and says so on the Deleted tab', async () => {
      const id = await inEditing('Paused then deleted');
      await server.db
        .updateTable('projects')
        .set({ noReviews: 2, finalVideoPreview: `projects/${id}/media/final/cut-proxy.mp4` })
        .where('id', '=', id)
        .execute();
      expect((await call('POST', `/projects/${id}/pause`, admin)).statusCode).toBe(200);
      const paused = await read(id);
      expect((await call('POST', `/projects/${id}/hide`, admin)).json().status.name).toBe('HIDDEN');
      const hidden = (await call('GET', '/projects?hidden=true&limit=200', admin)).json().data.projects as { id: number; restoresTo?: ProjectStatus }[];
      expect(hidden.find((row) => row.id === id)?.restoresTo).toBe('PAUSED');
      const restored = await call('POST', `/projects/${id}/restore`, admin);
      expect(restored.json().status.name).toBe('PAUSED');
      expect(await read(id)).toMatchObject({
        status: { name: 'PAUSED' },
        noReviews: 2,
        pausedAt: paused.pausedAt,
        totalPausedMinutes: paused.totalPausedMinutes,
      });
      expect(
        (await server.db.selectFrom('projects').select('statusBeforeHidden').where('id', '=', id).executeTakeFirstOrThrow()).statusBeforeHidden,
      ).toBeNull();
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
        const rows = (await call('GET', `/projects?active=true&sort=status&order=${order}&limit=200`, admin)).json().data.projects as {
          status: { name: ProjectStatus };
        }[];
        const ranks = rows.map((row) => statusWorkflowRank(row.status.name));
        expect(new Set(rows.map((row) => STAFF_STATUS_LABELS[row.status.name])).size).toBeGreaterThan(2);
        expect(ranks).toEqual([...ranks].sort((a, b) => (order === 'asc' ? a - b : b - a)));
      }
    });

    it('names the limit of a link that is too long', async () => {
      const id = await inEditing('Long links');
      const link = (length: number) => `https://example.com/${'x'.repeat(length - 20)}`;
      expect((await call('PATCH', `/projects/${id}`, admin, { reviewLink: link(200) })).statusCode).toBe(200);
      expect((await call('PATCH', `/projects/${id}`, admin, { reviewLink: link(201) })).json().fields.reviewLink).toBe(FIELD_MESSAGES.linkTooLong('feedback'));
      expect((await call('PATCH', `/projects/${id}`, admin, { editorAssetsLink: link(255) })).statusCode).toBe(200);
      expect((await call('PATCH', `/projects/${id}`, admin, { editorAssetsLink: link(256) })).json().fields.editorAssetsLink).toBe(
        FIELD_MESSAGES.linkTooLong('asset'),
      );
      expect((await call('PATCH', `/organizations/${organizationId}`, admin, { assetsLink: link(256) })).json().fields.assetsLink).toBe(
        FIELD_MESSAGES.linkTooLong('asset'),
      );
    });
  });
});

describe('ids that cannot name a row', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(null);
  });
  afterAll(async () => server?.close());

  it('answers 404 for path ids past the integer range, and 400 for such ids in bodies', async () => {
    const admin = await signIn(server.app, 'admin@demo.cutdesk.test');
    const owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    for (const url of [
      '/api/v1/projects/2147483648',
      '/api/v1/organizations/99999999999',
      '/api/v1/organizations/2147483648/projects',
      '/api/v1/projects/2147483648/assets',
    ]) {
      expect((await server.app.inject({ method: 'GET', url, headers: admin })).statusCode, url).toBe(404);
    }
    const project = (await server.db.selectFrom('projects').select('id').where('status', '=', 'WAITING_FOR_EDITOR').executeTakeFirstOrThrow()).id;
    for (const editorId of [1.5, 2147483648, -3, '7']) {
      const response = await server.app.inject({ method: 'POST', url: `/api/v1/projects/${project}/assign-editor`, headers: admin, payload: { editorId } });
      expect(response.statusCode, String(editorId)).toBe(400);
    }
    // A customer is refused for the role before the body is read.
    expect(
      (await server.app.inject({ method: 'POST', url: `/api/v1/projects/${project}/assign-editor`, headers: owner, payload: { editorId: 1.5 } })).statusCode,
    ).toBe(403);
    for (const projectId of [2147483648, '99999999999']) {
      const response = await server.app.inject({ method: 'POST', url: '/api/v1/uploads/credentials', headers: owner, payload: { projectId } });
      expect(response.statusCode, String(projectId)).toBe(400);
    }
    for (const assetId of [1.5, 1e20]) {
      const response = await server.app.inject({
        method: 'POST',
        url: `/api/v1/projects/${project}/links`,
        headers: owner,
        payload: { assetId, variant: 'original' },
      });
      expect(response.statusCode, String(assetId)).toBe(400);
    }
  });
});
