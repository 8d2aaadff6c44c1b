import { create, type Infer } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardPageStruct, DashboardQueryStruct, DashboardRowStruct } from '../../src/domain/contract/projects.ts';
import { dashboardPage } from '../../server/services/dashboard.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from './harness.ts';

/**
 * Issue 14: GET projects is written by a serializer compiled from DashboardPageStruct's JSON
 * Schema, which writes only the properties the schema names. The answer must be exactly what the
 * service returns (as JSON.stringify wrote it before), every field kept, and fit the struct.
 */
describe.each(DATABASES)('dashboard answer through its response schema on $name', ({ url }) => {
  let server: TestServer;
  let admin: { authorization: string };

  beforeAll(async () => {
    server = await startTestServer(url);
    admin = await signIn(server.app, 'admin@demo.cutdesk.test');
  });
  afterAll(async () => server?.close());

  const queries: Infer<typeof DashboardQueryStruct>[] = [
    { active: true, sort: 'name', order: 'asc', limit: 200 },
    { active: true, sort: 'createdAt', order: 'desc', limit: 2 },
    { archived: true, sort: 'name', limit: 200 },
    { hidden: true, sort: 'name', limit: 200 },
  ];

  it.each(queries)('answers what the service returns, field for field: %o', async (query) => {
    const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
    const response = await server.app.inject({ method: 'GET', url: `/api/v1/projects?${search}`, headers: admin });
    expect(response.statusCode, response.body).toBe(200);
    const body: unknown = response.json();
    const expected: unknown = JSON.parse(JSON.stringify({ data: await dashboardPage(server.db, query) }));
    expect(body).toEqual(expected);
    // Strict: `create` refuses a property the struct does not know and one it misses.
    expect(create(body, DashboardPageStruct)).toEqual(body);
    const rows = (body as Infer<typeof DashboardPageStruct>).data.projects;
    expect(rows.length).toBeGreaterThan(0);
    // Every field of the struct is written (restoresTo only on the Deleted tab).
    const keys = Object.keys(DashboardRowStruct.schema).filter((key) => key !== 'restoresTo' || query.hidden);
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(keys.sort());
  });

  it('keeps editors, nulls and the cursor', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/v1/projects?active=true&sort=name&limit=200', headers: admin });
    const { projects } = response.json().data as Infer<typeof DashboardPageStruct>['data'];
    expect(projects.some((p) => p.editor !== null && typeof p.editor.firstName === 'string')).toBe(true);
    expect(projects.some((p) => p.editor === null)).toBe(true);
    const page = await server.app.inject({ method: 'GET', url: '/api/v1/projects?active=true&sort=name&limit=1', headers: admin });
    expect(page.json().data.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });
});
