import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { US_FEDERAL_CALENDAR } from '../../src/domain/holiday-calendar.ts';
import { isBusinessDayAt } from '../../src/domain/sla-timer.ts';
import { sendCommentDigests, sendReviewReminders } from '../../server/services/review-notifications.ts';
import { MP4_FTYP } from '../support/file-fixtures.ts';
import { readOutbox } from '../support/outbox.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from './harness.ts';
import { finalPreviewReady } from './final-preview.ts';

type Headers = { authorization?: string };

/** Issue 13: review e-mails, read from the real outbox. */
describe.each(DATABASES)('review e-mails, on $name', ({ url }) => {
  let server: TestServer;
  let projectId: number;
  const who: Record<'admin' | 'owner' | 'user', Headers> = { admin: {}, owner: {}, user: {} };
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', path: string, headers: Headers, payload?: object) =>
    server.app.inject({ method, url: `/api/v1${path}`, headers: headers as Record<string, string>, ...(payload !== undefined && { payload }) });
  const deps = () => ({ db: server.db, mailer: server.app.ctx.mailer, publicUrl: server.config.publicUrl, secret: server.config.jwtSecret });
  const mailsTo = async (email: string, subject: RegExp) =>
    (await readOutbox(server.dataDir)).filter((m) => m.to.replace(/^.*</, '').replace(/>$/, '') === email && subject.test(m.subject));

  beforeAll(async () => {
    server = await startTestServer(url, { storage: true });
    who.admin = await signIn(server.app, 'admin@demo.cutdesk.test');
    who.owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    who.user = await signIn(server.app, 'user@demo.cutdesk.test');
    projectId = (await server.db.selectFrom('projects').select('id').where('name', '=', 'Product walkthrough').executeTakeFirstOrThrow()).id;
    await server.app.ctx.storage.putObject(`projects/${projectId}/final/cut.mp4`, Buffer.concat([MP4_FTYP, Buffer.from('a cut')]), 'video/mp4');
    expect((await call('POST', `/projects/${projectId}/deliverable`, who.admin, { path: `projects/${projectId}/final`, name: 'cut.mp4' })).statusCode).toBe(
      200,
    );
    await finalPreviewReady(server.db, projectId);
  });
  afterAll(async () => server?.close());

  it('switches a kind off in the settings (GET/PATCH me/review-mail); 400 on a non-flag', async () => {
    expect((await call('GET', '/me/review-mail', who.user)).json()).toEqual({ ready: true, reminder: true, changes: true, digest: true });
    expect((await call('PATCH', '/me/review-mail', who.user, { ready: false })).json()).toMatchObject({ ready: false, digest: true });
    expect((await call('PATCH', '/me/review-mail', who.user, { ready: 'no' })).statusCode).toBe(400);
  });

  it('mails "version ready" to the organization (not to who switched it off), with the days left and an unsubscribe link', async () => {
    expect((await call('POST', `/projects/${projectId}/submit`, who.admin)).statusCode).toBe(200);
    const [mail] = await mailsTo('owner@demo.cutdesk.test', /is ready for review/);
    expect(mail?.subject).toContain('Product walkthrough: version v01');
    expect(mail?.raw).toMatch(/List-Unsubscribe:\s+<http/);
    expect(await mailsTo('user@demo.cutdesk.test', /is ready for review/)).toEqual([]);
    // The link works without a session, once per kind; a forged token changes nothing.
    const link = new URL(mail!.links.find((l) => l.includes('unsubscribe'))!);
    const forged = link.search.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await server.app.inject({ method: 'GET', url: `/api/v1/review-mail/unsubscribe${forged}` })).statusCode).toBe(404);
    expect((await server.app.inject({ method: 'GET', url: '/api/v1/review-mail/unsubscribe?token=1.all.x' })).statusCode).toBe(404);
    const page = await server.app.inject({ method: 'GET', url: `/api/v1/review-mail/unsubscribe${link.search}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('You are unsubscribed');
    expect((await call('GET', '/me/review-mail', who.owner)).json()).toMatchObject({ ready: false, reminder: true });
  });

  it('reminds once, one review day before the window closes, even with two jobs at once', async () => {
    expect((await call('PUT', `/projects/${projectId}/review_period`, who.admin, { reviewPeriod: 3 })).statusCode).toBe(200);
    const started = (await server.db.selectFrom('projects').select('reviewStartedAt').where('id', '=', projectId).executeTakeFirstOrThrow()).reviewStartedAt!;
    const early = new Date(started.getTime() + 86_400_000);
    expect(await sendReviewReminders(deps(), early)).toBe(0);
    const late = new Date(started.getTime() + 2.5 * 86_400_000);
    const sent = await Promise.all([sendReviewReminders(deps(), late), sendReviewReminders(deps(), late)]);
    expect(sent[0] + sent[1]).toBe(2);
    expect(await mailsTo('owner@demo.cutdesk.test', /closes tomorrow/)).toHaveLength(1);
  });

  it('mails the open threads (escaped) to the editor and admins when changes are requested; the digest skips own comments', async () => {
    expect((await call('POST', `/projects/${projectId}/comments`, who.owner, { version: 1, frame: 30, text: '<b>x</b> shorter' })).statusCode).toBe(201);
    expect((await call('POST', `/projects/${projectId}/submit`, who.owner)).statusCode).toBe(200);
    const [mail] = await mailsTo('admin@demo.cutdesk.test', /Changes requested on Product walkthrough/);
    expect(mail?.raw).toContain('&lt;b&gt;x&lt;/b&gt; shorter');
    expect(mail?.raw).not.toContain('<b>x</b> shorter</td>');
    expect(mail?.raw).toContain('00:00:01:00');

    const monday8 = new Date(Date.now() + 60_000);
    // The next business day (no weekend, no holiday of the default calendar: issue 36 item 11) at 14:00 UTC, past 08:00 in New York.
    while (!isBusinessDayAt(monday8, US_FEDERAL_CALENDAR) || monday8.getUTCHours() < 14) monday8.setTime(monday8.getTime() + 3_600_000);
    // The comment was made an hour before that digest: a first digest covers the last day, and
    // on a weekend the next business morning is more than a day after the real clock.
    await sql`update review_comments set created_at = ${new Date(monday8.getTime() - 3_600_000)} where project_id = ${projectId} and text = '<b>x</b> shorter'`.execute(
      server.db,
    );
    const runs = await Promise.all([sendCommentDigests(deps(), monday8), sendCommentDigests(deps(), monday8)]);
    expect(runs[0] + runs[1]).toBeGreaterThan(0);
    expect(await mailsTo('admin@demo.cutdesk.test', /new comment/)).toHaveLength(1);
    expect(await mailsTo('owner@demo.cutdesk.test', /new comment/)).toEqual([]);
    // Nothing new since: no second digest the same day or the next.
    expect(await sendCommentDigests(deps(), new Date(monday8.getTime() + 3_600_000))).toBe(0);
  });
});
