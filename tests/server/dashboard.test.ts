import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collationKey, compareText, phoneKey } from '../../src/domain/collation.ts';
import { US_FEDERAL_CALENDAR } from '../../src/domain/holiday-calendar.ts';
import { slaRemainingMinutes } from '../../src/domain/sla-timer.ts';
import type { ProjectStatus } from '../../src/domain/project-status.ts';
import { migrateToLatest, migrator } from '../../server/migrations/index.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from './harness.ts';

interface Row {
  id: number;
  name: string;
  status: { name: ProjectStatus };
  organization: { name: string };
  latestSubmittedAt: string | null;
  pausedAt: string | null;
  totalPausedMinutes: number;
}

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
        .values({
          organizationId: org.id,
          userId: owner.id,
          editorId: null,
          name: `${i % 2 ? 'alpha' : 'Beta'} job ${i}`,
          status: i % 3 ? 'IN_EDITING' : 'PAUSED',
          latestSubmittedAt: new Date(Date.now() - (i + 1) * 7_200_000),
          pausedAt: i % 3 ? null : new Date(Date.now() - 3_600_000),
          totalPausedMinutes: i * 5,
          deletedAt: null,
        } as never)
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
        .values({
          organizationId: org.id,
          userId: owner.id,
          editorId: null,
          name: `Seconds apart ${i}`,
          status: running ? 'IN_EDITING' : 'PAUSED',
          latestSubmittedAt: new Date(base - i * 13_000),
          pausedAt: running ? null : new Date(base - 60_000),
          totalPausedMinutes: 0,
          deletedAt: null,
        } as never)
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

  it('sorts text as people do (case and accents together, numbers by value: issue 36 item 8) and toggles the direction', async () => {
    const names = (await list('active=true&sort=name&order=asc&limit=200')).map((p) => p.name);
    expect(names).toEqual([...names].sort(compareText));
    const reversed = (await list('active=true&sort=name&order=desc&limit=200')).map((p) => p.name);
    expect(reversed).toEqual([...names].reverse());
  });

  /** Every page of a listing, each continuing after the one before (issue 14, keyset paging). */
  const walk = async (query: string, limit: number) => {
    const ids: number[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const response = await server.app.inject({
        method: 'GET',
        url: `/api/v1/projects?${query}&limit=${limit}${after ? `&after=${after}` : ''}`,
        headers: admin,
      });
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
    expect((await server.app.inject({ method: 'GET', url: `/api/v1/projects?active=true&sort=name&limit=2&after=${cursor}`, headers: admin })).statusCode).toBe(
      200,
    );
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

  /**
   * Issue 36 item 8: the server's paged lists sort text as people do, the same on PGlite (no ICU)
   * and PostgreSQL: accents with their letter, case together, numbers by value, phones by their
   * digits, empty last, page after page. (Here, to share this file's server.)
   */
  describe('sorted as people expect', () => {
    // Letters only, so nothing in the tag itself sorts by number.
    const tag = `Srt${Array.from({ length: 5 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;
    const projectIds: Record<string, number> = {};

    const get = async (path: string) => {
      const response = await server.app.inject({ method: 'GET', url: `/api/v1${path}`, headers: admin });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };

    beforeAll(async () => {
      // Created out of order, so the ids do not give the expected order away.
      const customers = [
        { org: 'Zeta', first: 'Zoë', phone: '15550123456' },
        { org: 'Project 12', first: 'Émile', phone: null },
        { org: 'Échelle', first: 'emma', phone: '5550142' },
        { org: 'Project 6', first: 'adam', phone: '05550100' },
        { org: 'Delta', first: 'Bea', phone: '912' },
      ];
      for (const [i, customer] of customers.entries()) {
        const { id } = await server.db
          .insertInto('organizations')
          .values({ name: `${tag} ${customer.org}` })
          .returning('id')
          .executeTakeFirstOrThrow();
        await server.db.insertInto('credits').values({ organizationId: id, startDate: null, endDate: null, renewDate: null }).execute();
        const owner = await server.db
          .insertInto('users')
          .values({
            email: `${tag.toLowerCase()}-${i}@example.test`,
            passwordHash: null,
            firstName: customer.first,
            lastName: tag,
            phone: customer.phone,
            role: 'OWNER',
            organizationId: id,
            profilePictureUrl: null,
            assetsPath: null,
            deletedAt: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        // The board's rows: one project per organization, named by a placeholder that the API renames below.
        const project = await server.db
          .insertInto('projects')
          .values({
            organizationId: id,
            userId: owner.id,
            editorId: null,
            name: `${tag} draft ${i}`,
            status: 'IN_EDITING',
            latestSubmittedAt: new Date(),
            deletedAt: null,
          } as never)
          .returning('id')
          .executeTakeFirstOrThrow();
        projectIds[customer.org] = project.id;
      }
      const delta = await server.db.selectFrom('organizations').select('id').where('name', '=', `${tag} Delta`).executeTakeFirstOrThrow();
      const owner = await server.db.selectFrom('users').select('id').where('organizationId', '=', delta.id).executeTakeFirstOrThrow();
      await server.db
        .insertInto('projects')
        .values({
          organizationId: delta.id,
          userId: owner.id,
          editorId: null,
          name: `${tag} zeta`,
          status: 'IN_EDITING',
          latestSubmittedAt: new Date(),
          deletedAt: null,
        } as never)
        .execute();
      // Renamed through the API, as staff rename a title: the key follows the name.
      for (const [org, id] of Object.entries(projectIds)) {
        const response = await server.app.inject({ method: 'PATCH', url: `/api/v1/projects/${id}`, headers: admin, payload: { name: `${tag} ${org}` } });
        expect(response.statusCode, response.body).toBe(200);
      }
    });

    /** Every row of the board's active tab, two per page, each page continuing after the one before. */
    const board = async (sort: string, order: string) => {
      const rows: { name: string; organization: { name: string } }[] = [];
      let after: string | null = null;
      for (let pages = 0; pages < 200; pages++) {
        const { data } = await get(`/projects?active=true&sort=${sort}&order=${order}&limit=2${after ? `&after=${after}` : ''}`);
        rows.push(...data.projects);
        if (data.nextCursor === null) return rows.filter((row) => row.name.startsWith(tag));
        after = data.nextCursor;
      }
      throw new Error('the cursor never ended');
    };
    const words = (names: string[]) => names.map((name) => name.slice(tag.length + 1));

    it('the staff board sorts titles and organizations with accents, case and numbers as people read them, across pages', async () => {
      const byName = ['Delta', 'Échelle', 'Project 6', 'Project 12', 'Zeta', 'zeta'];
      expect(words((await board('name', 'asc')).map((row) => row.name))).toEqual(byName);
      expect(words((await board('name', 'desc')).map((row) => row.name))).toEqual([...byName].reverse());
      expect(words((await board('organization', 'asc')).map((row) => row.organization.name))).toEqual([
        'Delta',
        'Delta',
        'Échelle',
        'Project 6',
        'Project 12',
        'Zeta',
      ]);
      // The spec's start pages alike.
      const pages = [0, 2, 4].map((start) => get(`/projects?active=true&sort=name&order=asc&start=${start}&limit=2`));
      const paged = (await Promise.all(pages)).flatMap(({ data }) => data.projects.map((row: { id: number }) => row.id));
      const whole = (await get('/projects?active=true&sort=name&order=asc&limit=6')).data.projects.map((row: { id: number }) => row.id);
      expect(paged).toEqual(whole);
    });

    it('the customers list sorts organizations, owners and phones the same way, empty phones last both ways, across pages', async () => {
      type Row = { name: string; owner: { firstName: string; phone: string | null } };
      const customers = async (sort: string, order: string) => {
        const rows: Row[] = [];
        for (const start of [0, 2, 4]) rows.push(...(await get(`/organizations?q=${tag}&sort=${sort}&order=${order}&start=${start}&limit=2`)));
        return rows;
      };
      const organizations = ['Delta', 'Échelle', 'Project 6', 'Project 12', 'Zeta'];
      expect(words((await customers('organization', 'asc')).map((row) => row.name))).toEqual(organizations);
      expect(words((await customers('organization', 'desc')).map((row) => row.name))).toEqual([...organizations].reverse());
      expect((await customers('name', 'asc')).map((row) => row.owner.firstName)).toEqual(['adam', 'Bea', 'Émile', 'emma', 'Zoë']);
      expect((await customers('phone', 'asc')).map((row) => row.owner.phone)).toEqual(['912', '05550100', '5550142', '15550123456', null]);
      expect((await customers('phone', 'desc')).map((row) => row.owner.phone)).toEqual(['15550123456', '5550142', '05550100', '912', null]);
    });

    it('migration 0021 fills the keys of the rows already there with the domain functions', async () => {
      // Back to before 0021 (the later ones first: 0022 watches its organization key), then up again.
      const down = await migrator(server.db).migrateTo('0020-holiday-calendar');
      expect(down.error).toBeUndefined();
      expect(down.results?.map((result) => result.migrationName)).toEqual([
        '0026-asset-fingerprints',
        '0025-asset-sent-checksums',
        '0024-asset-folders',
        '0023-change-notifications',
        '0022-board-watches-sort-keys',
        '0021-sort-keys',
      ]);
      await migrateToLatest(server.db);
      const users = await server.db
        .selectFrom('users')
        .select(['firstName', 'lastName', 'email', 'phone', 'nameSortKey', 'emailSortKey', 'phoneSortKey'])
        .where('lastName', '=', tag)
        .execute();
      expect(users).toHaveLength(5);
      for (const user of users) {
        expect(user).toMatchObject({
          nameSortKey: collationKey(`${user.firstName} ${user.lastName}`),
          emailSortKey: collationKey(user.email),
          phoneSortKey: phoneKey(user.phone),
        });
      }
      const { rows } = await sql<{ name: string; key: string }>`select name, name_sort_key as key from projects where name like ${`${tag}%`}`.execute(
        server.db,
      );
      expect(rows).toHaveLength(6);
      for (const row of rows) expect(row.key).toBe(collationKey(row.name));
    });
  });
});
