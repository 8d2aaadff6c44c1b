import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_MESSAGES } from '../../src/domain/review-rules.ts';
import { DATABASES, startTestServer, type TestServer } from './harness.ts';
import { reviewCast, walkthroughWithCut } from './review-fixture.ts';

type Headers = { authorization?: string };

/**
 * Issue 13: "Request changes needs at least one open comment or a written note on the current
 * version". The page asks for one before it sends; the server must hold the rule for any caller,
 * so a direct POST projects/{id}/submit cannot send the editor back to work with nothing to do.
 */
describe.each(DATABASES)('a change request says what to change, on $name', ({ url }) => {
  let server: TestServer;
  let projectId: number;
  const who: Record<'admin' | 'owner' | 'user', Headers> = { admin: {}, owner: {}, user: {} };

  const call = (method: 'GET' | 'POST' | 'PATCH', path: string, headers: Headers, payload?: object) =>
    server.app.inject({ method, url: `/api/v1${path}`, headers: headers as Record<string, string>, ...(payload !== undefined && { payload }) });
  const status = async () => (await call('GET', `/projects/${projectId}`, who.owner)).json<{ status: { name: string } }>().status.name;

  beforeAll(async () => {
    server = await startTestServer(url, { storage: true });
    const cast = await reviewCast(server);
    Object.assign(who, { admin: cast.admin, owner: cast.owner, user: cast.user });
    projectId = await walkthroughWithCut(server, who.admin);
    expect((await call('POST', `/projects/${projectId}/submit`, who.admin)).statusCode).toBe(200);
    expect(await status()).toBe('IN_REVIEW');
  });
  afterAll(async () => server?.close());

  it('refuses a request with no comment on the version in review (400, the page’s message); the project stays in review', async () => {
    const refused = await call('POST', `/projects/${projectId}/submit`, who.owner);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ message: REVIEW_MESSAGES.changesNeedFeedback });
    expect(await status()).toBe('IN_REVIEW');
  });

  it('does not count resolved or deleted threads as something to change', async () => {
    const resolved = (await call('POST', `/projects/${projectId}/comments`, who.owner, { version: 1, frame: 3, text: 'Fine after all.' })).json<{
      id: number;
    }>();
    expect((await call('PATCH', `/projects/${projectId}/comments/${resolved.id}`, who.owner, { resolved: true })).statusCode).toBe(200);
    expect((await call('POST', `/projects/${projectId}/submit`, who.user)).statusCode).toBe(400);
    expect(await status()).toBe('IN_REVIEW');
  });

  it('sends the project back to editing once an open thread says what to change', async () => {
    // The page's written note is posted this way: a comment at the version's first frame.
    expect((await call('POST', `/projects/${projectId}/comments`, who.user, { version: 1, frame: 0, text: 'Shorter intro, please.' })).statusCode).toBe(201);
    const sent = await call('POST', `/projects/${projectId}/submit`, who.user);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await status()).toBe('IN_EDITING');
  });
});
