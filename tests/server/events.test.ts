import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '../../src/domain/contract/events.ts';
import { buildApp } from '../../server/app.ts';
import { connectDatabase } from '../../server/db/connect.ts';
import { publishChange } from '../../server/events/bus.ts';
import { MAX_STREAMS_PER_USER } from '../../server/events/hub.ts';
import { redactUrl } from '../../server/log-redaction.ts';
import { completeClosedReviews } from '../../server/services/review-auto-complete.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from './harness.ts';

type Headers = { authorization: string };

/** An open event stream read with fetch (inject does not stream): its events as they arrive. */
interface Stream {
  status: number;
  headers: globalThis.Headers;
  /** The next event that matches, or a failure after `timeoutMs`. */
  next(match?: (event: LiveEvent) => boolean, timeoutMs?: number): Promise<LiveEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** Raw text received so far. */
  text(): string;
  close(): void;
}

async function openStream(url: string): Promise<Stream> {
  const abort = new AbortController();
  const response = await fetch(url, { signal: abort.signal, headers: { accept: 'text/event-stream' } });
  const events: LiveEvent[] = [];
  const waiters = new Set<() => void>();
  let raw = '';
  let buffer = '';
  let endedResolve!: () => void;
  const ended = new Promise<void>((resolve) => (endedResolve = resolve));
  if (response.body) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          raw += value;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block
              .split('\n')
              .filter((line) => line.startsWith('data: '))
              .map((line) => line.slice(6))
              .join('\n');
            if (data) events.push(JSON.parse(data) as LiveEvent);
          }
          for (const wake of waiters) wake();
        }
      } catch {
        // aborted by close()
      } finally {
        endedResolve();
        for (const wake of waiters) wake();
      }
    })();
  } else endedResolve();
  return {
    status: response.status,
    headers: response.headers,
    ended,
    text: () => raw,
    close: () => abort.abort(),
    next(match = () => true, timeoutMs = 5_000) {
      return new Promise<LiveEvent>((resolve, reject) => {
        const check = () => {
          const index = events.findIndex(match);
          if (index === -1) return false;
          const [event] = events.splice(index, 1);
          waiters.delete(check);
          clearTimeout(timer);
          resolve(event!);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching event within ${timeoutMs} ms; received: ${raw}`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
  };
}

async function listen(server: TestServer): Promise<string> {
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const address = server.app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

describe.each(DATABASES)('live updates on $name', ({ name, url }) => {
  let server: TestServer;
  let base: string;
  const who = {} as Record<'admin' | 'editor' | 'owner' | 'outsider', Headers>;
  let reviewProject: number;
  let editingProject: number;
  const streams: Stream[] = [];

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, headers?: Headers, payload?: object) =>
    server.app.inject({ method, url: `/api/v1${path}`, ...(headers && { headers }), ...(payload && { payload }) });
  const ticket = async (path: string, headers: Headers) => {
    const response = await call('POST', path, headers);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ ticket: string; expiresIn: number }>();
    expect(body.expiresIn).toBe(60);
    return body.ticket;
  };
  const projectStream = async (projectId: number, headers: Headers) => {
    const stream = await openStream(`${base}/api/v1/projects/${projectId}/events?ticket=${await ticket(`/projects/${projectId}/events/ticket`, headers)}`);
    streams.push(stream);
    return stream;
  };

  beforeAll(async () => {
    server = await startTestServer(url);
    base = await listen(server);
    who.admin = await signIn(server.app, 'admin@demo.cutdesk.test');
    who.editor = await signIn(server.app, 'editor@demo.cutdesk.test');
    who.owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    who.outsider = await signIn(server.app, 'nina@northwind.demo.cutdesk.test');
    const byName = (projectName: string) => server.db.selectFrom('projects').select('id').where('name', '=', projectName).executeTakeFirstOrThrow();
    reviewProject = (await byName('Quarterly highlights')).id;
    editingProject = (await byName('Product walkthrough')).id;
    // A released cut to comment on (the customer sees it).
    await server.db
      .insertInto('projectVersions')
      .values({
        projectId: reviewProject,
        number: 1,
        videoPath: `projects/${reviewProject}/final/cut.mp4`,
        videoSize: null,
        previewPath: null,
        frameRateNum: null,
        frameRateDen: null,
        durationFrames: null,
        width: null,
        height: null,
        releasedAt: new Date(),
      })
      .execute();
  });
  afterEach(() => {
    for (const stream of streams.splice(0)) stream.close();
  });
  afterAll(async () => server?.close());

  it('opens a stream only with a ticket for that stream, handed to a session that still stands', async () => {
    expect((await call('GET', `/projects/${reviewProject}/events`)).statusCode).toBe(401);
    expect((await call('GET', `/projects/${reviewProject}/events?ticket=nonsense`)).statusCode).toBe(401);
    // The session token is no ticket, and a ticket is no session token.
    const sessionToken = who.owner.authorization.slice('Bearer '.length);
    expect((await call('GET', `/projects/${reviewProject}/events?ticket=${sessionToken}`)).statusCode).toBe(401);
    const owners = await ticket(`/projects/${reviewProject}/events/ticket`, who.owner);
    expect((await call('GET', `/projects/${reviewProject}/comments?version=1`, { authorization: `Bearer ${owners}` })).statusCode).toBe(401);
    // Another project's ticket, or the dashboard's with a project's.
    expect((await call('GET', `/projects/${editingProject}/events?ticket=${owners}`)).statusCode).toBe(401);
    expect((await call('GET', `/dashboard/events?ticket=${owners}`)).statusCode).toBe(401);
    // Another organization's project does not exist for the caller.
    expect((await call('POST', `/projects/${reviewProject}/events/ticket`, who.outsider)).statusCode).toBe(404);
    expect((await call('POST', `/projects/${reviewProject}/events/ticket`)).statusCode).toBe(401);
    // The dashboard's stream is staff's.
    expect((await call('POST', '/dashboard/events/ticket', who.owner)).statusCode).toBe(403);
    // Tickets never reach a log.
    expect(redactUrl(`/api/v1/projects/1/events?ticket=${owners}`)).toBe('/api/v1/projects/1/events?ticket=[redacted]');
  });

  it('refuses an expired ticket', async () => {
    const owners = await ticket(`/projects/${reviewProject}/events/ticket`, who.owner);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      expect((await call('GET', `/projects/${reviewProject}/events?ticket=${owners}`)).statusCode).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a ticket whose session ended since (password change, disable)', async () => {
    const editors = await ticket(`/projects/${editingProject}/events/ticket`, who.editor);
    const editor = await server.db
      .selectFrom('users')
      .select(['id', 'sessionVersion'])
      .where('email', '=', 'editor@demo.cutdesk.test')
      .executeTakeFirstOrThrow();
    await server.db
      .updateTable('users')
      .set({ sessionVersion: editor.sessionVersion + 1 })
      .where('id', '=', editor.id)
      .execute();
    try {
      expect((await call('GET', `/projects/${editingProject}/events?ticket=${editors}`)).statusCode).toBe(401);
    } finally {
      await server.db.updateTable('users').set({ sessionVersion: editor.sessionVersion }).where('id', '=', editor.id).execute();
    }
  });

  it('streams with SSE headers and a retry field', async () => {
    const stream = await projectStream(reviewProject, who.owner);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('cache-control')).toMatch(/no-cache/);
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    // The security headers of every answer are kept.
    expect(stream.headers.get('x-content-type-options')).toBe('nosniff');
    await vi.waitFor(() => expect(stream.text()).toMatch(/^retry: 3000\n/));
    expect(server.app.events.size).toBe(1);
    // A client that leaves is forgotten.
    stream.close();
    await vi.waitFor(() => expect(server.app.events.size).toBe(0));
  });

  it('a comment by one user reaches another user’s open stream; its resolve and delete too', async () => {
    const owner = await projectStream(reviewProject, who.owner);
    const admin = await projectStream(reviewProject, who.admin);
    const other = await projectStream(editingProject, who.owner);
    await vi.waitFor(() => expect(server.app.events.size).toBe(3));
    const posted = await call('POST', `/projects/${reviewProject}/comments`, who.admin, { version: 1, frame: 0, text: 'Tighten the intro' });
    expect(posted.statusCode, posted.body).toBe(201);
    const event = await owner.next();
    expect(event).toMatchObject({ type: 'comment', projectId: reviewProject });
    const commentId = posted.json<{ id: number }>().id;
    // Customers are not told the version; staff are. The comment is named (the page reads that
    // thread alone, through the API); nothing else is in an event.
    expect(event).not.toHaveProperty('version');
    expect(Object.keys(event).sort()).toEqual(['at', 'commentId', 'projectId', 'type']);
    expect(event.commentId).toBe(commentId);
    expect(await admin.next()).toMatchObject({ type: 'comment', projectId: reviewProject, version: 1, commentId });
    expect((await call('PATCH', `/projects/${reviewProject}/comments/${commentId}`, who.admin, { resolved: true })).statusCode).toBe(200);
    expect(await owner.next()).toMatchObject({ type: 'comment', projectId: reviewProject, commentId });
    expect(await admin.next()).toMatchObject({ type: 'comment', projectId: reviewProject });
    expect((await call('DELETE', `/projects/${reviewProject}/comments/${commentId}`, who.admin)).statusCode).toBe(204);
    expect(await owner.next()).toMatchObject({ type: 'comment' });
    // A reply by the customer reaches staff.
    const reply = await call('POST', `/projects/${reviewProject}/comments`, who.owner, { version: 1, frame: 5, text: 'Agreed' });
    expect(reply.statusCode, reply.body).toBe(201);
    expect(await admin.next((e) => e.type === 'comment')).toMatchObject({ type: 'comment', projectId: reviewProject, version: 1 });
    // Another project's stream heard nothing of it.
    await expect(other.next(undefined, 300)).rejects.toThrow(/no matching event/);
  });

  it('a status change reaches the project’s streams and the staff dashboard’s', async () => {
    const owner = await projectStream(editingProject, who.owner);
    const dashboard = await openStream(`${base}/api/v1/dashboard/events?ticket=${await ticket('/dashboard/events/ticket', who.editor)}`);
    streams.push(dashboard);
    expect(dashboard.status).toBe(200);
    await vi.waitFor(() => expect(server.app.events.size).toBe(2));
    expect((await call('POST', `/projects/${editingProject}/pause`, who.admin)).statusCode).toBe(200);
    expect(await owner.next()).toMatchObject({ type: 'project', projectId: editingProject });
    expect(await dashboard.next()).toMatchObject({ type: 'project', projectId: editingProject });
    expect((await call('POST', `/projects/${editingProject}/resume`, who.admin)).statusCode).toBe(200);
    expect(await owner.next()).toMatchObject({ type: 'project', projectId: editingProject });
    // Comments do not change a dashboard row.
    expect((await call('POST', `/projects/${reviewProject}/comments`, who.admin, { version: 1, frame: 1, text: 'More' })).statusCode).toBe(201);
    expect((await call('POST', `/projects/${editingProject}/pause`, who.admin)).statusCode).toBe(200);
    expect(await dashboard.next()).toMatchObject({ type: 'project', projectId: editingProject });
    await expect(dashboard.next((event) => event.type === 'comment', 300)).rejects.toThrow(/no matching event/);
    expect((await call('POST', `/projects/${editingProject}/resume`, who.admin)).statusCode).toBe(200);
  });

  it('a rolled-back change publishes nothing; a published one arrives once', async () => {
    const owner = await projectStream(editingProject, who.owner);
    await vi.waitFor(() => expect(server.app.events.size).toBe(1));
    await server.db
      .transaction()
      .execute(async (tx) => {
        await publishChange(tx, { type: 'project', projectId: editingProject });
        throw new Error('rolled back');
      })
      .catch(() => {});
    await publishChange(server.db, { type: 'comment', projectId: editingProject, version: 1, released: true });
    expect(await owner.next()).toMatchObject({ type: 'comment' });
    await expect(owner.next(undefined, 300)).rejects.toThrow(/no matching event/);
  });

  it('a customer never hears of comments on a version not yet sent to them; staff do', async () => {
    const owner = await projectStream(editingProject, who.owner);
    const editor = await projectStream(editingProject, who.editor);
    await vi.waitFor(() => expect(server.app.events.size).toBe(2));
    await publishChange(server.db, { type: 'comment', projectId: editingProject, version: 2, released: false });
    expect(await editor.next()).toMatchObject({ type: 'comment', version: 2, released: false });
    await expect(owner.next(undefined, 300)).rejects.toThrow(/no matching event/);
    await publishChange(server.db, { type: 'comment', projectId: editingProject, version: 1, released: true });
    const heard = await owner.next();
    expect(heard).toMatchObject({ type: 'comment', projectId: editingProject });
    expect(heard).not.toHaveProperty('version');
    expect(heard).not.toHaveProperty('released');
  });

  it('an editor’s or an organization’s new name reaches the staff dashboard’s stream and the project pages’ (issue 36)', async () => {
    const dashboard = await openStream(`${base}/api/v1/dashboard/events?ticket=${await ticket('/dashboard/events/ticket', who.admin)}`);
    streams.push(dashboard);
    const owner = await projectStream(editingProject, who.owner);
    await vi.waitFor(() => expect(server.app.events.size).toBe(2));
    const editor = await server.db
      .selectFrom('users')
      .select(['id', 'email', 'firstName', 'lastName'])
      .where('email', '=', 'editor@demo.cutdesk.test')
      .executeTakeFirstOrThrow();
    const organization = await server.db.selectFrom('organizations').select(['id', 'name']).where('name', '=', 'Demo Studio').executeTakeFirstOrThrow();
    const nameEditor = (firstName: string, phone?: string) =>
      call('PATCH', `/users/${editor.id}`, who.admin, { email: editor.email, firstName, lastName: editor.lastName, ...(phone && { phone }) });
    try {
      const renamed = await nameEditor('Renamed');
      expect(renamed.statusCode, renamed.body).toBe(200);
      // No project is named: every page that shows names with projects reads them again.
      expect(await dashboard.next()).toEqual({ type: 'project', projectId: null, at: expect.any(String) as string });
      expect(await owner.next()).toMatchObject({ type: 'project', projectId: null });
      // An organization renamed (no route renames one: psql, a script) is heard as well, once for its transaction.
      await server.db.transaction().execute(async (tx) => {
        await tx.updateTable('organizations').set({ name: 'Demo Studio (renamed)' }).where('id', '=', organization.id).execute();
        await tx.updateTable('organizations').set({ name: 'Demo Studio (renamed again)' }).where('id', '=', organization.id).execute();
      });
      expect(await dashboard.next()).toMatchObject({ type: 'project', projectId: null });
      await expect(dashboard.next(undefined, 200)).rejects.toThrow(/no matching event/);
      // A write that changes no name or picture tells nobody.
      expect((await nameEditor('Renamed', '5550100')).statusCode).toBe(200);
      await expect(dashboard.next(undefined, 200)).rejects.toThrow(/no matching event/);
    } finally {
      await nameEditor(editor.firstName);
      await server.db.updateTable('organizations').set({ name: organization.name }).where('id', '=', organization.id).execute();
    }
  });

  it('a user disabled, or whose sessions end, loses every open stream at once; other users keep theirs (issue 36)', async () => {
    const editorDashboard = await openStream(`${base}/api/v1/dashboard/events?ticket=${await ticket('/dashboard/events/ticket', who.editor)}`);
    streams.push(editorDashboard);
    const editorProject = await projectStream(editingProject, who.editor);
    const owner = await projectStream(editingProject, who.owner);
    await vi.waitFor(() => expect(server.app.events.size).toBe(3));
    const editor = await server.db.selectFrom('users').select('id').where('email', '=', 'editor@demo.cutdesk.test').executeTakeFirstOrThrow();
    expect((await call('PATCH', `/users/${editor.id}`, who.admin, { isEnabled: false })).statusCode).toBe(200);
    try {
      // Told to read again (which now answers 401: the page signs out), then ended.
      for (const stream of [editorDashboard, editorProject]) {
        expect(await stream.next()).toMatchObject({ type: 'resync', projectId: null });
        await stream.ended;
      }
      expect(server.app.events.size).toBe(1);
    } finally {
      expect((await call('PATCH', `/users/${editor.id}`, who.admin, { isEnabled: true })).statusCode).toBe(200);
      who.editor = await signIn(server.app, 'editor@demo.cutdesk.test');
    }
    // The owner's stream heard nothing of it; a sign-out everywhere (a password change, a session
    // version raised even behind the API) ends it.
    await expect(owner.next(undefined, 100)).rejects.toThrow(/no matching event/);
    const ownerRow = await server.db
      .selectFrom('users')
      .select(['id', 'sessionVersion'])
      .where('email', '=', 'owner@demo.cutdesk.test')
      .executeTakeFirstOrThrow();
    await server.db
      .updateTable('users')
      .set({ sessionVersion: ownerRow.sessionVersion + 1 })
      .where('id', '=', ownerRow.id)
      .execute();
    expect(await owner.next()).toMatchObject({ type: 'resync' });
    await owner.ended;
    who.owner = await signIn(server.app, 'owner@demo.cutdesk.test');
  });

  it(`caps each user at ${MAX_STREAMS_PER_USER} streams per server with a 429`, async () => {
    const owner = await server.db.selectFrom('users').select('id').where('email', '=', 'owner@demo.cutdesk.test').executeTakeFirstOrThrow();
    const removes = Array.from({ length: MAX_STREAMS_PER_USER }, () =>
      server.app.events.add({ userId: owner.id, accepts: () => false, send: () => {}, close: () => {}, stillAllowed: async () => true }),
    );
    try {
      const response = await call('GET', `/projects/${reviewProject}/events?ticket=${await ticket(`/projects/${reviewProject}/events/ticket`, who.owner)}`);
      expect(response.statusCode).toBe(429);
      expect(response.json<{ message: string }>().message).toMatch(/Too many live connections/);
    } finally {
      for (const remove of removes) remove();
    }
  });

  it.skipIf(name === 'PGlite')('a lost database listener reconnects and tells the open streams to catch up', async () => {
    const owner = await projectStream(reviewProject, who.owner);
    await vi.waitFor(() => expect(server.app.events.size).toBe(1));
    // The database ends this instance's LISTEN connection (a restart or failover looks the same).
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'cutdesk-events' and datname = current_database()`.execute(
      server.db,
    );
    expect(await owner.next((event) => event.type === 'resync', 10_000)).toMatchObject({ type: 'resync', projectId: null });
    expect((await call('POST', `/projects/${reviewProject}/comments`, who.admin, { version: 1, frame: 3, text: 'After the reconnect' })).statusCode).toBe(201);
    expect(await owner.next((event) => event.type === 'comment')).toMatchObject({ type: 'comment', projectId: reviewProject });
  });

  it.skipIf(name === 'PGlite')('an event published on one instance reaches a stream on another instance of the same database', async () => {
    const db = await connectDatabase({ databaseUrl: server.config.databaseUrl, dataDir: server.dataDir });
    const other = await buildApp({ config: server.config, db });
    try {
      await other.listen({ host: '127.0.0.1', port: 0 });
      const address = other.server.address();
      const otherBase = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      // The ticket of instance A opens a stream on instance B (same secret, same database).
      const stream = await openStream(
        `${otherBase}/api/v1/projects/${reviewProject}/events?ticket=${await ticket(`/projects/${reviewProject}/events/ticket`, who.owner)}`,
      );
      streams.push(stream);
      expect(stream.status).toBe(200);
      await vi.waitFor(() => expect(other.events.size).toBe(1));
      expect((await call('POST', `/projects/${reviewProject}/comments`, who.admin, { version: 1, frame: 2, text: 'From instance A' })).statusCode).toBe(201);
      expect(await stream.next()).toMatchObject({ type: 'comment', projectId: reviewProject });
      // Access ended through instance A's database connection (the owner signed out everywhere)
      // ends the stream on instance B at once (issue 36).
      const owner = await server.db
        .selectFrom('users')
        .select(['id', 'sessionVersion'])
        .where('email', '=', 'owner@demo.cutdesk.test')
        .executeTakeFirstOrThrow();
      await server.db
        .updateTable('users')
        .set({ sessionVersion: owner.sessionVersion + 1 })
        .where('id', '=', owner.id)
        .execute();
      who.owner = await signIn(server.app, 'owner@demo.cutdesk.test');
      expect(await stream.next()).toMatchObject({ type: 'resync' });
      await stream.ended;
    } finally {
      for (const stream of streams.splice(0)) stream.close();
      await other.close();
      await db.destroy();
    }
  });

  // Last in this block: it approves the review project the tests above comment on.
  it('a review window that closes approves the project live: its streams and the staff dashboard hear it once', async () => {
    const owner = await projectStream(reviewProject, who.owner);
    const dashboard = await openStream(`${base}/api/v1/dashboard/events?ticket=${await ticket('/dashboard/events/ticket', who.editor)}`);
    streams.push(dashboard);
    await vi.waitFor(() => expect(server.app.events.size).toBe(2));
    await server.db
      .updateTable('projects')
      .set({ reviewPeriod: 1, reviewStartedAt: new Date(Date.now() - 10 * 86_400_000) })
      .where('id', '=', reviewProject)
      .execute();
    expect(await completeClosedReviews(server.db)).toBe(1);
    expect(await owner.next()).toMatchObject({ type: 'project', projectId: reviewProject });
    expect(await dashboard.next()).toMatchObject({ type: 'project', projectId: reviewProject });
    // A second run moves nothing and tells nobody.
    expect(await completeClosedReviews(server.db)).toBe(0);
    await expect(owner.next(undefined, 300)).rejects.toThrow(/no matching event/);
    expect((await call('GET', `/projects/${reviewProject}`, who.owner)).json<{ status: { name: string } }>().status.name).toBe('APPROVED');
  });

  // After the one above: it deletes the organization every test here uses.
  it('an organization deleted ends its members’ streams and staff’s streams of its projects (issue 36)', async () => {
    const owner = await projectStream(editingProject, who.owner);
    const admin = await projectStream(editingProject, who.admin);
    const dashboard = await openStream(`${base}/api/v1/dashboard/events?ticket=${await ticket('/dashboard/events/ticket', who.editor)}`);
    streams.push(dashboard);
    await vi.waitFor(() => expect(server.app.events.size).toBe(3));
    const organization = await server.db.selectFrom('projects').select('organizationId').where('id', '=', editingProject).executeTakeFirstOrThrow();
    expect((await call('DELETE', `/organizations/${organization.organizationId}`, who.admin)).statusCode).toBe(204);
    for (const stream of [owner, admin]) {
      expect(await stream.next((event) => event.type === 'resync')).toMatchObject({ type: 'resync' });
      await stream.ended;
    }
    // The board stays open and reads its rows again (the organization's projects leave it).
    expect(await dashboard.next()).toMatchObject({ type: 'project', projectId: null });
    expect(server.app.events.size).toBe(1);
  });
});

describe.each(DATABASES)('shutdown with open streams on $name', ({ url }) => {
  it('ends every stream and closes promptly', async () => {
    const server = await startTestServer(url);
    let closed = false;
    try {
      const base = await listen(server);
      const owner = await signIn(server.app, 'owner@demo.cutdesk.test');
      const project = await server.db.selectFrom('projects').select('id').where('name', '=', 'Product walkthrough').executeTakeFirstOrThrow();
      const ticketOf = async () =>
        (await server.app.inject({ method: 'POST', url: `/api/v1/projects/${project.id}/events/ticket`, headers: owner })).json<{ ticket: string }>().ticket;
      const streams = [
        await openStream(`${base}/api/v1/projects/${project.id}/events?ticket=${await ticketOf()}`),
        await openStream(`${base}/api/v1/projects/${project.id}/events?ticket=${await ticketOf()}`),
      ];
      await vi.waitFor(() => expect(server.app.events.size).toBe(2));
      const started = Date.now();
      const closing = server.close();
      closed = true;
      // The streams end at once (preClose), so the HTTP server is not kept open by them.
      await Promise.all(streams.map((stream) => stream.ended));
      expect(Date.now() - started).toBeLessThan(2_000);
      await closing;
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      if (!closed) await server.close();
    }
  });
});
