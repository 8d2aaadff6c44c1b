import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../src/domain/contract/events.ts';
import { REVIEW_MESSAGES } from '../../src/domain/review-rules.ts';
import { publishChange } from '../../server/events/bus.ts';
import { SHARE_MESSAGES } from '../../src/domain/share-links.ts';
import { DATABASES, startTestServer, type TestServer } from './harness.ts';
import { reviewCast, walkthroughWithCut } from './review-fixture.ts';

type Headers = Record<string, string>;

/** An event stream read over HTTP (inject does not stream): its status, and its events one by one. */
async function openStream(url: string) {
  const abort = new AbortController();
  const response = await fetch(url, { signal: abort.signal, headers: { accept: 'text/event-stream' } });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return {
    status: response.status,
    /** The next event's data (comments and pings skipped). */
    async next(): Promise<LiveEvent> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (data) return JSON.parse(data.slice(6)) as LiveEvent;
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        buffer += value;
      }
    },
    close: () => abort.abort(),
  };
}

interface Link {
  id: number;
  url: string;
  state: string;
  hasPassword: boolean;
  guestComments: number;
  version: number;
}

/**
 * Issue 13, guest reviewers: the owner shares one version with someone without an account
 * (expiring, optionally with a password, revocable); guests watch and comment under a name they
 * type, and nothing else of the organization is reachable through the link.
 */
describe.each(DATABASES)('guest share links, on $name', ({ url }) => {
  let server: TestServer;
  let projectId: number;
  const who: Record<'admin' | 'owner' | 'user' | 'otherOwner' | 'editor', Headers> = { admin: {}, owner: {}, user: {}, otherOwner: {}, editor: {} };

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, headers: Headers = {}, payload?: object) =>
    server.app.inject({ method, url: `/api/v1${path}`, headers, ...(payload !== undefined && { payload }) });
  const tokenOf = (link: Link) => link.url.split('/review/')[1]!;
  const share = async (body: object = { version: 1, expiresInDays: 7 }) => {
    const made = await call('POST', `/projects/${projectId}/share-links`, who.owner, body);
    expect(made.statusCode, made.body).toBe(201);
    return made.json<Link>();
  };

  beforeAll(async () => {
    server = await startTestServer(url, { storage: true });
    Object.assign(who, await reviewCast(server));
    projectId = await walkthroughWithCut(server, who.admin);
    expect((await call('POST', `/projects/${projectId}/submit`, who.admin)).statusCode).toBe(200);
  });
  afterAll(async () => server?.close());

  it('lets only the owner make a link, for a version they were sent, with an expiry from the list', async () => {
    const link = await share();
    expect(link).toMatchObject({ version: 1, state: 'active', hasPassword: false, guestComments: 0 });
    expect(link.url).toMatch(/\/review\/\d+\.[A-Za-z0-9_-]{32}$/);
    expect((await call('POST', `/projects/${projectId}/share-links`, who.user, { version: 1, expiresInDays: 7 })).statusCode).toBe(403);
    expect((await call('POST', `/projects/${projectId}/share-links`, who.admin, { version: 1, expiresInDays: 7 })).statusCode).toBe(403);
    expect((await call('POST', `/projects/${projectId}/share-links`, who.otherOwner, { version: 1, expiresInDays: 7 })).statusCode).toBe(404);
    expect((await call('GET', `/projects/${projectId}/share-links`, who.otherOwner)).statusCode).toBe(404);
    expect((await call('POST', `/projects/${projectId}/share-links`, who.owner, { version: 2, expiresInDays: 7 })).statusCode).toBe(404);
    const badExpiry = await call('POST', `/projects/${projectId}/share-links`, who.owner, { version: 1, expiresInDays: 365 });
    expect(badExpiry.statusCode).toBe(400);
    expect(badExpiry.json()).toMatchObject({ fields: { expiresInDays: SHARE_MESSAGES.expiryInvalid } });
    const shortPassword = await call('POST', `/projects/${projectId}/share-links`, who.owner, { version: 1, expiresInDays: 7, password: 'abc' });
    expect(shortPassword.json()).toMatchObject({ fields: { password: SHARE_MESSAGES.passwordTooShort } });
    // The owner's list; a user of the organization does not manage them.
    const listed = (await call('GET', `/projects/${projectId}/share-links`, who.owner)).json<{ links: Link[] }>().links;
    expect(listed.map((l) => l.id)).toContain(link.id);
    expect((await call('GET', `/projects/${projectId}/share-links`, who.user)).statusCode).toBe(403);
  });

  it('shows a guest that version, its media and comments, and nothing else; they comment under a typed name', async () => {
    const link = await share();
    const token = tokenOf(link);
    const page = await call('GET', `/share/${token}`);
    expect(page.statusCode, page.body).toBe(200);
    const review = page.json<{
      requiresPassword: boolean;
      review: { projectName: string; organizationName: string; open: boolean; version: { number: number; media: { thumbnail: string } } };
    }>();
    expect(review).toMatchObject({
      requiresPassword: false,
      review: { projectName: 'Product walkthrough', organizationName: 'Demo Studio', open: true, version: { number: 1 } },
    });
    // Guest media links name the share link, not a session; they answer like the project's own (not processed yet).
    expect(review.review.version.media.thumbnail).toMatch(/^\/api\/v1\/media\/g\d+\./);
    expect((await server.app.inject({ method: 'GET', url: review.review.version.media.thumbnail })).statusCode).not.toBe(404);

    const noName = await call('POST', `/share/${token}/comments`, {}, { frame: 12, text: 'Logo too small' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json()).toMatchObject({ fields: { guestName: REVIEW_MESSAGES.guestNameRequired } });
    const posted = await call('POST', `/share/${token}/comments`, {}, { frame: 12, text: '<b>Logo</b> too small', guestName: '  Dana from Marketing ' });
    expect(posted.statusCode, posted.body).toBe(201);
    expect(posted.json()).toMatchObject({
      version: 1,
      frame: 12,
      text: '<b>Logo</b> too small',
      author: { name: 'Dana from Marketing', role: 'GUEST' },
      canEdit: false,
      canResolve: false,
      canDelete: false,
    });

    // Members see it as a guest's; staff can resolve it.
    const threads = (await call('GET', `/projects/${projectId}/comments?version=1`, who.owner)).json<{ comments: { id: number; author: { role: string } }[] }>()
      .comments;
    const guestThread = threads.find((t) => t.author.role === 'GUEST')!;
    expect(guestThread).toBeDefined();
    expect((await call('PATCH', `/projects/${projectId}/comments/${guestThread.id}`, who.editor, { resolved: true })).statusCode).toBe(200);
    // The guest reads the version's threads (members' too) and answers one.
    const guestList = (await call('GET', `/share/${token}/comments`)).json<{ comments: { id: number }[] }>();
    expect(guestList.comments.map((c) => c.id)).toContain(guestThread.id);
    expect((await call('POST', `/share/${token}/comments`, {}, { parentId: guestThread.id, text: 'Thanks!', guestName: 'Dana' })).statusCode).toBe(201);
    // A name someone typed proves nothing: a guest never edits or deletes, there is no route for it either.
    expect((await call('PATCH', `/share/${token}/comments/${guestThread.id}`, {}, { text: 'changed' })).statusCode).toBe(404);
    const counted = (await call('GET', `/projects/${projectId}/share-links`, who.owner)).json<{ links: Link[] }>().links.find((l) => l.id === link.id)!;
    expect(counted.guestComments).toBe(2);
  });

  it('keeps the guest inside the link: another project’s comment, a forged token and the organization’s API are closed', async () => {
    const token = tokenOf(await share());
    const other = await server.db.selectFrom('projects').select('id').where('id', '!=', projectId).executeTakeFirstOrThrow();
    const foreign = await server.db.selectFrom('reviewComments').select('id').where('projectId', '!=', projectId).executeTakeFirst();
    if (foreign) expect((await call('POST', `/share/${token}/comments`, {}, { parentId: foreign.id, text: 'hi', guestName: 'Eve' })).statusCode).toBe(404);
    const [id, signature] = token.split('.') as [string, string];
    expect((await call('GET', `/share/${Number(id) + 1}.${signature}`)).statusCode).toBe(404);
    expect((await call('GET', `/share/${id}.${'A'.repeat(32)}`)).statusCode).toBe(404);
    expect((await call('GET', `/share/not-a-token/comments`)).statusCode).toBe(404);
    // The token is no session: the organization's own API answers 401 to it.
    expect((await call('GET', `/projects/${other.id}`, { authorization: `Bearer ${token}` })).statusCode).toBe(401);
  });

  it('asks for the password of a protected link once, and refuses the wrong one', async () => {
    const link = await share({ version: 1, expiresInDays: 1, password: 'blue-fern-42' });
    expect(link.hasPassword).toBe(true);
    const token = tokenOf(link);
    const locked = (await call('GET', `/share/${token}`)).json();
    expect(locked).toMatchObject({ requiresPassword: true, review: null });
    expect(JSON.stringify(locked)).not.toContain('Product walkthrough');
    expect((await call('GET', `/share/${token}/comments`)).statusCode).toBe(401);
    expect((await call('POST', `/share/${token}/comments`, {}, { frame: 1, text: 'x', guestName: 'Eve' })).statusCode).toBe(401);
    const wrong = await call('POST', `/share/${token}/access`, {}, { password: 'green-fern-42' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ fields: { password: SHARE_MESSAGES.passwordWrong } });
    const right = await call('POST', `/share/${token}/access`, {}, { password: 'blue-fern-42' });
    expect(right.statusCode).toBe(200);
    const { pass } = right.json<{ pass: string }>();
    expect((await call('GET', `/share/${token}`, { 'x-share-pass': pass })).json()).toMatchObject({ review: { projectName: 'Product walkthrough' } });
    expect((await call('GET', `/share/${token}/comments`, { 'x-share-pass': pass })).statusCode).toBe(200);
    // A pass opens its own link only.
    const otherToken = tokenOf(await share({ version: 1, expiresInDays: 1, password: 'another-pass' }));
    expect((await call('GET', `/share/${otherToken}/comments`, { 'x-share-pass': pass })).statusCode).toBe(401);
    // The password is stored hashed.
    const stored = await server.db.selectFrom('reviewShareLinks').select('passwordHash').where('id', '=', link.id).executeTakeFirstOrThrow();
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('ends a link at once when revoked or expired, its media links too', async () => {
    const link = await share();
    const token = tokenOf(link);
    const media = (await call('GET', `/share/${token}`)).json<{ review: { version: { media: { thumbnail: string } } } }>().review.version.media.thumbnail;
    expect((await call('DELETE', `/projects/${projectId}/share-links/${link.id}`, who.user)).statusCode).toBe(403);
    expect((await call('DELETE', `/projects/${projectId}/share-links/${link.id}`, who.owner)).statusCode).toBe(204);
    const gone = await call('GET', `/share/${token}`);
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toMatchObject({ message: SHARE_MESSAGES.linkGone });
    expect((await call('POST', `/share/${token}/comments`, {}, { frame: 1, text: 'late', guestName: 'Dana' })).statusCode).toBe(410);
    expect((await server.app.inject({ method: 'GET', url: media })).statusCode).toBe(404);
    expect((await call('GET', `/projects/${projectId}/share-links`, who.owner)).json<{ links: Link[] }>().links.find((l) => l.id === link.id)).toMatchObject({
      state: 'revoked',
    });

    const expiring = await share();
    await server.db
      .updateTable('reviewShareLinks')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where('id', '=', expiring.id)
      .execute();
    expect((await call('GET', `/share/${tokenOf(expiring)}`)).statusCode).toBe(410);
    expect(
      (await call('GET', `/projects/${projectId}/share-links`, who.owner)).json<{ links: Link[] }>().links.find((l) => l.id === expiring.id),
    ).toMatchObject({ state: 'expired' });
  });

  it('streams to a guest the link’s version’s comments and the project’s changes only, without version numbers; behind its password; closed once revoked', async () => {
    const address = server.app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1`;
    const link = await share();
    const stream = await openStream(`${base}/share/${tokenOf(link)}/events`);
    try {
      expect(stream.status).toBe(200);
      // Another version of this project and another project are not the guest's to hear of.
      const other = await server.db.selectFrom('projects').select('id').where('id', '!=', projectId).executeTakeFirstOrThrow();
      await publishChange(server.db, { type: 'comment', projectId, version: 2, released: false, commentId: 1 });
      await publishChange(server.db, { type: 'comment', projectId: other.id, version: 1, released: true, commentId: 2 });
      await publishChange(server.db, { type: 'project', projectId: other.id });
      // A comment on the link's version is: the first event the guest hears.
      const posted = await call('POST', `/projects/${projectId}/comments`, who.owner, { version: 1, frame: 4, text: 'Heard by the guest' });
      expect(posted.statusCode, posted.body).toBe(201);
      const heard = await stream.next();
      expect(heard).toMatchObject({ type: 'comment', projectId, commentId: posted.json<{ id: number }>().id });
      expect(heard).not.toHaveProperty('version');
      await publishChange(server.db, { type: 'project', projectId });
      expect(await stream.next()).toMatchObject({ type: 'project', projectId });
    } finally {
      stream.close();
    }

    const locked = await share({ version: 1, expiresInDays: 1, password: 'stream-pass-7' });
    const without = await openStream(`${base}/share/${tokenOf(locked)}/events`);
    without.close();
    expect(without.status).toBe(401);
    const { pass } = (await call('POST', `/share/${tokenOf(locked)}/access`, {}, { password: 'stream-pass-7' })).json<{ pass: string }>();
    const unlocked = await openStream(`${base}/share/${tokenOf(locked)}/events?pass=${encodeURIComponent(pass)}`);
    unlocked.close();
    expect(unlocked.status).toBe(200);

    // A guest's stream open when the link is revoked is told to read again (the page then says
    // the link no longer works) and ends at once (issue 36); another link's stays open.
    const open = await openStream(`${base}/share/${tokenOf(link)}/events`);
    const other = await openStream(`${base}/share/${tokenOf(await share())}/events`);
    expect((await call('DELETE', `/projects/${projectId}/share-links/${link.id}`, who.owner)).statusCode).toBe(204);
    expect(await open.next()).toMatchObject({ type: 'resync', projectId: null });
    await expect(open.next()).rejects.toThrow('the stream ended');
    await publishChange(server.db, { type: 'project', projectId });
    expect(await other.next()).toMatchObject({ type: 'project', projectId });
    other.close();
    const revoked = await openStream(`${base}/share/${tokenOf(link)}/events`);
    revoked.close();
    expect(revoked.status).toBe(410);
  });

  it('closes the link when the project leaves the customer’s sight', async () => {
    const token = tokenOf(await share());
    await server.db.updateTable('projects').set({ status: 'HIDDEN' }).where('id', '=', projectId).execute();
    try {
      expect((await call('GET', `/share/${token}`)).statusCode).toBe(410);
    } finally {
      await server.db.updateTable('projects').set({ status: 'IN_REVIEW' }).where('id', '=', projectId).execute();
    }
  });
});
