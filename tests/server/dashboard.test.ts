import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { US_FEDERAL_CALENDAR } from '../../src/domain/holiday-calendar.ts';
import { slaRemainingMinutes } from '../../src/domain/sla-timer.ts';
import type { ProjectStatus } from '../../src/domain/project-status.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from './harness.ts';

interface Row { id: number; name: string; status: { name: ProjectStatus }; organization: { name: string }; latestSubmittedAt: string | null; pausedAt: string | null; totalPausedMinutes: number }

describe.each(DATABASES)('dashboard list on $name', ({ url }) => {
  let server: TestServer;
  let admin: { authorization: string };
  const list = async (query: string, headers = admin) => {
    const response = await server.app.inject({ method: 'GET', url: `/api/v1/projects?${query}`, headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.projects as Row[];
  };

  beforeAll(async () => {
    server = await startTestServer(url);
    admin = await signIn(server.app, 'admin@demo.cutdesk.test');
    // More running projects with different submission times, so the timer order means something.
    const org = await server.db.selectFrom('organizations').select('id').executeTakeFirstOrThrow();
    const owner = await server.db.selectFrom('users').select('id').where('role', '=', 'OWNER').executeTakeFirstOrThrow();
    for (let i = 0; i < 12; i++) {
      await server.db
        .insertInto('projects')
        .values({ organizationId: org.id, userId: owner.id, editorId: null, name: `${i % 2 ? 'alpha' : 'Beta'} job ${i}`, status: i % 3 ? 'IN_EDITING' : 'PAUSED', latestSubmittedAt: new Date(Date.now() - (i + 1) * 7_200_000), pausedAt: i % 3 ? null : new Date(Date.now() - 3_600_000), totalPausedMinutes: i * 5, deletedAt: null } as never)
        .execute();
    }
    const { projectsRepo } = await import('../../server/repositories/projects.ts');
    await projectsRepo(server.db).refreshSlaKeys();
  });
  afterAll(async () => server?.close());

  it('splits the tabs by status', async () => {
    const active = await list('active=true&limit=200');
    expect(new Set(active.map((p) => p.status.name))).not.toContain('ARCHIVED');
    expect(active.some((p) => p.status.name === 'OPENED' || p.status.name === 'HIDDEN')).toBe(false);
    expect((await list('archived=true')).map((p) => p.status.name)).toEqual(['ARCHIVED']);
    expect((await list('hidden=true')).map((p) => p.status.name)).toEqual(['HIDDEN']);
  });

  it('sorts by timer on the server, consistently across pages, as the shared timer computes it', async () => {
    const now = new Date();
    const first = await list('active=true&sort=timer&order=asc&start=0&limit=5');
    const second = await list('active=true&sort=timer&order=asc&start=5&limit=5');
    const minutes = [...first, ...second].map((p) => slaRemainingMinutes({ ...p, status: p.status.name }, now, US_FEDERAL_CALENDAR));
    expect(minutes).toEqual([...minutes].sort((a, b) => a - b));
    expect(new Set([...first, ...second].map((p) => p.id)).size).toBe(10);
    const descending = await list('active=true&sort=timer&order=desc&limit=5');
    const top = descending.map((p) => slaRemainingMinutes({ ...p, status: p.status.name }, now, US_FEDERAL_CALENDAR));
    expect(top).toEqual([...top].sort((a, b) => b - a));
  });

  it('keeps projects submitted seconds apart in timer order: no tie hides a minute', async () => {
    // Later submissions get lower ids, so a deadline rounded to the minute and tied by id would
    // list a 47:59 above a 47:58 (the flaky dashboard sort of stop 18).
    const org = await server.db.selectFrom('organizations').select('id').executeTakeFirstOrThrow();
    const owner = await server.db.selectFrom('users').select('id').where('role', '=', 'OWNER').executeTakeFirstOrThrow();
    const base = Date.now();
    const ids: number[] = [];
    for (let i = 0; i < 14; i++) {
      const running = i % 4 !== 3;
      const row = await server.db
        .insertInto('projects')
        .values({ organizationId: org.id, userId: owner.id, editorId: null, name: `Seconds apart ${i}`, status: running ? 'IN_EDITING' : 'PAUSED', latestSubmittedAt: new Date(base - i * 13_000), pausedAt: running ? null : new Date(base - 60_000), totalPausedMinutes: 0, deletedAt: null } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    const { projectsRepo } = await import('../../server/repositories/projects.ts');
    await projectsRepo(server.db).refreshSlaKeys(ids);
    for (const order of ['asc', 'desc'] as const) {
      const rows = await list(`active=true&sort=timer&order=${order}&limit=200`);
      const now = new Date();
      const minutes = rows.map((p) => slaRemainingMinutes({ ...p, status: p.status.name }, now, US_FEDERAL_CALENDAR));
      expect(minutes, order).toEqual([...minutes].sort((a, b) => (order === 'asc' ? a - b : b - a)));
    }
  });

  it('sorts text case-insensitively and toggles the direction', async () => {
    const names = (await list('active=true&sort=name&order=asc&limit=200')).map((p) => p.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    const reversed = (await list('active=true&sort=name&order=desc&limit=200')).map((p) => p.name.toLowerCase());
    expect(reversed).toEqual([...names].reverse());
  });

  /** Every page of a listing, each continuing after the one before (issue 14, keyset paging). */
  const walk = async (query: string, limit: number) => {
    const ids: number[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const response = await server.app.inject({ method: 'GET', url: `/api/v1/projects?${query}&limit=${limit}${after ? `&after=${after}` : ''}`, headers: admin });
      expect(response.statusCode, response.body).toBe(200);
      const { projects, nextCursor } = response.json().data as { projects: Row[]; nextCursor: string | null };
      ids.push(...projects.map((p) => p.id));
      if (nextCursor === null) return ids;
      after = nextCursor;
    }
    throw new Error('the cursor never ended');
  };

  it('continues page after page with the cursor: every row once, in the order of one long page, for every sort and direction', async () => {
    for (const sort of ['name', 'organization', 'status', 'createdAt', 'version'] as const) {
      for (const order of ['asc', 'desc'] as const) {
        const whole = (await list(`active=true&sort=${sort}&order=${order}&limit=200`)).map((p) => p.id);
        expect(await walk(`active=true&sort=${sort}&order=${order}`, 4), `${sort} ${order}`).toEqual(whole);
      }
    }
    // The timer's running cells tick between requests, so its order is checked as the cells show it.
    for (const order of ['asc', 'desc'] as const) {
      const whole = (await list(`active=true&sort=timer&order=${order}&limit=200`)).map((p) => p.id);
      const walked = await walk(`active=true&sort=timer&order=${order}`, 3);
      expect(walked).toHaveLength(whole.length);
      expect(new Set(walked)).toEqual(new Set(whole));
      const rows = new Map((await list(`active=true&sort=timer&limit=200`)).map((p) => [p.id, p]));
      const now = new Date();
      const minutes = walked.map((id) => rows.get(id)!).map((p) => slaRemainingMinutes({ ...p, status: p.status.name }, now, US_FEDERAL_CALENDAR));
      expect(minutes, order).toEqual([...minutes].sort((a, b) => (order === 'asc' ? a - b : b - a)));
    }
    // The spec's start still pages as before.
    const first = await list('active=true&sort=name&start=0&limit=3');
    const second = await list('active=true&sort=name&start=3&limit=3');
    expect([...first, ...second].map((p) => p.id)).toEqual((await list('active=true&sort=name&limit=6')).map((p) => p.id));
  });

  it('refuses a cursor that is not one of ours, belongs to another sort or tab, or comes with start (400, never 500)', async () => {
    const page = await server.app.inject({ method: 'GET', url: '/api/v1/projects?active=true&sort=name&limit=2', headers: admin });
    const cursor = page.json().data.nextCursor as string;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const bad = [
      `sort=name&after=not-a-cursor`,
      `sort=name&after=${forged({ v: 1, tab: 'active', sort: 'name', order: 'asc', key: { running: null } })}`,
      `sort=status&after=${forged({ v: 1, tab: 'active', sort: 'status', order: 'asc', key: ["1'); drop table projects; --", 3] })}`,
      `sort=createdAt&after=${forged({ v: 1, tab: 'active', sort: 'createdAt', order: 'asc', key: ['yesterday', 3] })}`,
      `sort=timer&after=${forged({ v: 1, tab: 'active', sort: 'timer', order: 'asc', key: { running: ['99999999999999999999999', 1], frozen: null } })}`,
      `sort=timer&after=${forged({ v: 1, tab: 'active', sort: 'timer', order: 'asc', key: { running: null, frozen: ['5', -1] } })}`,
      `sort=status&after=${cursor}`,
      `sort=name&archived=true&after=${cursor}`,
      `sort=name&order=desc&after=${cursor}`,
      `sort=name&start=2&after=${cursor}`,
    ];
    for (const query of bad) {
      const response = await server.app.inject({ method: 'GET', url: `/api/v1/projects?active=true&${query}`, headers: admin });
      expect(response.statusCode, `${query}: ${response.body}`).toBe(400);
      expect(response.json().message).toMatch(/Reload the list|either start or after/);
    }
    expect((await server.app.inject({ method: 'GET', url: `/api/v1/projects?active=true&sort=name&limit=2&after=${cursor}`, headers: admin })).statusCode).toBe(200);
  });

  it('refuses bad queries with 400', async () => {
    for (const query of ['sort=color', 'limit=0', 'start=-1', 'limit=abc', 'active=maybe']) {
      const response = await server.app.inject({ method: 'GET', url: `/api/v1/projects?${query}`, headers: admin });
      expect(response.statusCode, query).toBe(400);
    }
  });

  it('is for staff only', async () => {
    expect((await list('active=true', await signIn(server.app, 'editor@demo.cutdesk.test'))).length).toBeGreaterThan(0);
    const owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    expect((await server.app.inject({ method: 'GET', url: '/api/v1/projects', headers: owner })).statusCode).toBe(403);
    expect((await server.app.inject({ method: 'GET', url: '/api/v1/projects' })).statusCode).toBe(401);
  });
});
