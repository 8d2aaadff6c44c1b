import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, signIn, startTestServer, type TestServer } from './harness.ts';
import { reviewCast, walkthroughWithCut } from './review-fixture.ts';

type Headers = Record<string, string>;

/**
 * Issue 13, "the role matrix over every new route": every route of the frame-accurate review
 * (versions, comments, export, live updates, share links), called by every kind of caller, in
 * one table. Each cell is the status the caller gets; the table is read against docs/api.md
 * (V: anyone who may see the project, S: staff, OWNER: the organization's owner; another
 * organization's project is 404; writes through an impersonation are 403; no session is 401).
 */
const CALLERS = ['anonymous', 'superadmin', 'admin', 'editor', 'owner', 'user', 'outsider', 'impersonation', 'guestToken'] as const;
type Caller = (typeof CALLERS)[number];
type Row = Record<Caller, number>;

/** A row from the statuses in the order of CALLERS. */
const row = (...statuses: number[]): Row => Object.fromEntries(CALLERS.map((caller, i) => [caller, statuses[i]!])) as Row;

describe.each(DATABASES)('the review routes by role, on $name', ({ url }) => {
  let server: TestServer;
  let projectId: number;
  let ownerThread: number;
  const who = {} as Record<Caller, Headers>;

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, headers: Headers, payload?: object) =>
    server.app.inject({ method, url: `/api/v1${path}`, headers, ...(payload !== undefined && { payload }) });
  const ownerComment = async (text: string) => {
    const made = await call('POST', `/projects/${projectId}/comments`, who.owner, { version: 1, frame: 5, text });
    expect(made.statusCode, made.body).toBe(201);
    return made.json<{ id: number }>().id;
  };
  const shareLink = async () => {
    const made = await call('POST', `/projects/${projectId}/share-links`, who.owner, { version: 1, expiresInDays: 7 });
    expect(made.statusCode, made.body).toBe(201);
    return made.json<{ id: number; url: string }>();
  };

  beforeAll(async () => {
    server = await startTestServer(url, { storage: true });
    const cast = await reviewCast(server);
    projectId = await walkthroughWithCut(server, cast.admin);
    expect((await call('POST', `/projects/${projectId}/submit`, cast.admin)).statusCode).toBe(200);
    const organizationId = (await server.db.selectFrom('projects').select('organizationId').where('id', '=', projectId).executeTakeFirstOrThrow())
      .organizationId;
    const login = await call('GET', `/organizations/${organizationId}/admin/login`, cast.admin);
    expect(login.statusCode, login.body).toBe(200);
    Object.assign(who, {
      anonymous: {},
      superadmin: await signIn(server.app, 'superadmin@demo.cutdesk.test'),
      admin: cast.admin,
      editor: cast.editor,
      owner: cast.owner,
      user: cast.user,
      outsider: cast.otherOwner,
      impersonation: { authorization: `Bearer ${login.json<{ token: string }>().token}` },
    });
    // A guest's share token is no session.
    who.guestToken = { authorization: `Bearer ${(await shareLink()).url.split('/review/')[1]!}` };
    ownerThread = await ownerComment('The owner’s thread');
  }, 120_000);
  afterAll(async () => server?.close());

  // anonymous, superadmin, admin, editor, owner, user, outsider, impersonation, guest token
  const READ = row(401, 200, 200, 200, 200, 200, 404, 200, 401);

  it('reads: versions, a version’s comments, one thread', async () => {
    const table: [string, Row][] = [
      [`/projects/${projectId}/versions`, READ],
      [`/projects/${projectId}/comments?version=1`, READ],
      [`/projects/${projectId}/comments/${ownerThread}`, READ],
    ];
    for (const [path, expected] of table) {
      const got = Object.fromEntries(await Promise.all(CALLERS.map(async (caller) => [caller, (await call('GET', path, who[caller])).statusCode])));
      expect(got, `GET ${path}`).toEqual(expected);
    }
  });

  it('writes a comment: anyone who sees the project, never through an impersonation', async () => {
    const got: Partial<Row> = {};
    for (const caller of CALLERS)
      got[caller] = (await call('POST', `/projects/${projectId}/comments`, who[caller], { version: 1, frame: 3, text: `By ${caller}` })).statusCode;
    expect(got).toEqual(row(401, 201, 201, 201, 201, 201, 404, 403, 401));
  });

  it('resolves: staff and the thread’s author; edits: the author only', async () => {
    const resolved: Partial<Row> = {};
    const edited: Partial<Row> = {};
    for (const caller of CALLERS) {
      resolved[caller] = (await call('PATCH', `/projects/${projectId}/comments/${ownerThread}`, who[caller], { resolved: true })).statusCode;
      edited[caller] = (await call('PATCH', `/projects/${projectId}/comments/${ownerThread}`, who[caller], { text: `Edited by ${caller}` })).statusCode;
    }
    expect(resolved).toEqual(row(401, 200, 200, 200, 200, 403, 404, 403, 401));
    expect(edited).toEqual(row(401, 403, 403, 403, 200, 403, 404, 403, 401));
  });

  it('deletes: the author and administrators, not an editor or another member', async () => {
    const got: Partial<Row> = {};
    for (const caller of CALLERS)
      got[caller] = (await call('DELETE', `/projects/${projectId}/comments/${await ownerComment(`For ${caller} to delete`)}`, who[caller])).statusCode;
    expect(got).toEqual(row(401, 204, 204, 403, 204, 403, 404, 403, 401));
  });

  it('exports the markers for staff only, in every format', async () => {
    for (const format of ['csv', 'edl', 'fcpxml', 'pdf']) {
      const got = Object.fromEntries(
        await Promise.all(
          CALLERS.map(async (caller) => [
            caller,
            (await call('GET', `/projects/${projectId}/comments/export?version=1&format=${format}`, who[caller])).statusCode,
          ]),
        ),
      );
      expect(got, format).toEqual(row(401, 200, 200, 200, 403, 403, 403, 403, 401));
    }
  });

  it('hands out stream tickets: the project’s to whoever sees it, the dashboard’s to staff', async () => {
    const project: Partial<Row> = {};
    const dashboard: Partial<Row> = {};
    for (const caller of CALLERS) {
      project[caller] = (await call('POST', `/projects/${projectId}/events/ticket`, who[caller])).statusCode;
      dashboard[caller] = (await call('POST', '/dashboard/events/ticket', who[caller])).statusCode;
    }
    expect(project).toEqual(row(401, 200, 200, 200, 200, 200, 404, 200, 401));
    expect(dashboard).toEqual(row(401, 200, 200, 200, 403, 403, 403, 403, 401));
  });

  it('opens each stream with that caller’s ticket only', async () => {
    // The streams are read over HTTP (inject does not stream): the test server listens already, for its object store.
    const address = server.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const open = async (path: string) => {
      const abort = new AbortController();
      const response = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, { signal: abort.signal, headers: { accept: 'text/event-stream' } });
      abort.abort();
      return response.status;
    };
    const ticket = async (caller: Caller, path: string) => (await call('POST', path, who[caller])).json<{ ticket: string }>().ticket;
    for (const caller of ['superadmin', 'admin', 'editor', 'owner', 'user', 'impersonation'] as const) {
      expect(await open(`/projects/${projectId}/events?ticket=${await ticket(caller, `/projects/${projectId}/events/ticket`)}`), caller).toBe(200);
    }
    for (const caller of ['superadmin', 'admin', 'editor'] as const)
      expect(await open(`/dashboard/events?ticket=${await ticket(caller, '/dashboard/events/ticket')}`), caller).toBe(200);
    // No ticket, a session token instead of one, another stream's ticket, a ticket of another project.
    expect(await open(`/projects/${projectId}/events`)).toBe(401);
    expect(await open(`/projects/${projectId}/events?ticket=${who.owner.authorization!.slice('Bearer '.length)}`)).toBe(401);
    expect(await open(`/projects/${projectId}/events?ticket=${await ticket('admin', '/dashboard/events/ticket')}`)).toBe(401);
    expect(await open(`/dashboard/events?ticket=${await ticket('admin', `/projects/${projectId}/events/ticket`)}`)).toBe(401);
    const otherProject = (await server.db.selectFrom('projects').select('id').where('id', '!=', projectId).executeTakeFirstOrThrow()).id;
    expect(await open(`/projects/${otherProject}/events?ticket=${await ticket('admin', `/projects/${projectId}/events/ticket`)}`)).toBe(401);
  });

  it('share links: the organization’s owner makes, lists and revokes them; nobody else', async () => {
    const listed: Partial<Row> = {};
    const made: Partial<Row> = {};
    const revoked: Partial<Row> = {};
    for (const caller of CALLERS) {
      listed[caller] = (await call('GET', `/projects/${projectId}/share-links`, who[caller])).statusCode;
      made[caller] = (await call('POST', `/projects/${projectId}/share-links`, who[caller], { version: 1, expiresInDays: 1 })).statusCode;
      revoked[caller] = (await call('DELETE', `/projects/${projectId}/share-links/${(await shareLink()).id}`, who[caller])).statusCode;
    }
    expect(listed).toEqual(row(401, 403, 403, 403, 200, 403, 404, 200, 401));
    expect(made).toEqual(row(401, 403, 403, 403, 201, 403, 404, 403, 401));
    expect(revoked).toEqual(row(401, 403, 403, 403, 204, 403, 404, 403, 401));
  });
});
