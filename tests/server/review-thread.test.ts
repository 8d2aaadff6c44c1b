import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestServer, type TestServer } from './harness.ts';
import { reviewCast, walkthroughWithCut } from './review-fixture.ts';

type Headers = Record<string, string>;
interface Thread {
  id: number;
  version: number;
  text: string;
  deleted: boolean;
  canResolve: boolean;
  replies: { id: number; text: string }[];
}

/**
 * Issue 13, the comment list under fan-out: a live event names the changed comment, and an open
 * page reads that thread alone (`GET projects/{id}/comments/{commentId}`) instead of the whole
 * list. It answers exactly what the list holds for that thread, to the same callers.
 */
describe.each(DATABASES)('one thread of the review, on $name', ({ url }) => {
  let server: TestServer;
  let projectId: number;
  const who: Record<'admin' | 'editor' | 'owner' | 'user' | 'otherOwner', Headers> = { admin: {}, editor: {}, owner: {}, user: {}, otherOwner: {} };
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, headers: Headers, payload?: object) =>
    server.app.inject({ method, url: `/api/v1${path}`, headers, ...(payload !== undefined && { payload }) });
  const post = async (headers: Headers, body: object) => {
    const response = await call('POST', `/projects/${projectId}/comments`, headers, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: number }>().id;
  };
  const listed = async (headers: Headers, id: number) =>
    (await call('GET', `/projects/${projectId}/comments?version=1`, headers)).json<{ comments: Thread[] }>().comments.find((t) => t.id === id);

  beforeAll(async () => {
    server = await startTestServer(url, { storage: true });
    Object.assign(who, await reviewCast(server));
    projectId = await walkthroughWithCut(server, who.admin);
  });
  afterAll(async () => server?.close());

  it('answers the thread of a comment or of a reply exactly as the list shows it, to each caller', async () => {
    // Not sent to review yet: staff see the thread, the customer does not (404, as in the list).
    const staffThread = await post(who.admin, { version: 1, frame: 4, text: 'Before the customer sees it' });
    expect((await call('GET', `/projects/${projectId}/comments/${staffThread}`, who.admin)).statusCode).toBe(200);
    expect((await call('GET', `/projects/${projectId}/comments/${staffThread}`, who.owner)).statusCode).toBe(404);
    expect((await call('POST', `/projects/${projectId}/submit`, who.admin)).statusCode).toBe(200);

    const thread = await post(who.user, { version: 1, frame: 40, text: 'Logo too small' });
    const reply = await post(who.admin, { version: 1, parentId: thread, text: 'Bigger in v02' });
    for (const headers of [who.user, who.owner, who.admin]) {
      const one = await call('GET', `/projects/${projectId}/comments/${thread}`, headers);
      expect(one.statusCode, one.body).toBe(200);
      expect(one.json()).toEqual(await listed(headers, thread));
      // A reply's id answers its whole thread.
      expect((await call('GET', `/projects/${projectId}/comments/${reply}`, headers)).json()).toEqual(one.json());
    }
    expect((await call('GET', `/projects/${projectId}/comments/${thread}`, who.user)).json<Thread>()).toMatchObject({
      version: 1,
      text: 'Logo too small',
      canResolve: true,
      replies: [{ id: reply, text: 'Bigger in v02' }],
    });
    // Another organization: as if it did not exist.
    expect((await call('GET', `/projects/${projectId}/comments/${thread}`, who.otherOwner)).statusCode).toBe(404);
    expect((await call('GET', `/projects/${projectId}/comments/999999`, who.admin)).statusCode).toBe(404);
  });

  it('keeps a deleted thread with replies as its placeholder, and answers 404 once nothing of it is left', async () => {
    const thread = await post(who.user, { version: 1, frame: 80, text: 'Music too loud' });
    const reply = await post(who.owner, { version: 1, parentId: thread, text: 'Yes, half as loud' });
    expect((await call('DELETE', `/projects/${projectId}/comments/${thread}`, who.user)).statusCode).toBe(204);
    const placeholder = (await call('GET', `/projects/${projectId}/comments/${reply}`, who.owner)).json<Thread>();
    expect(placeholder).toMatchObject({ id: thread, deleted: true, text: '', replies: [{ id: reply }] });
    expect(placeholder).toEqual(await listed(who.owner, thread));
    expect((await call('DELETE', `/projects/${projectId}/comments/${reply}`, who.owner)).statusCode).toBe(204);
    expect((await call('GET', `/projects/${projectId}/comments/${thread}`, who.owner)).statusCode).toBe(404);
    expect((await call('GET', `/projects/${projectId}/comments/${reply}`, who.owner)).statusCode).toBe(404);
    expect(await listed(who.owner, thread)).toBeUndefined();
  });
});
