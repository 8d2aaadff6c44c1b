import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessToday } from '../../src/domain/business-calendar.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from '../server/harness.ts';

/**
 * Issue 9, races that PostgreSQL exposes (PGlite runs one statement at a time, so these are
 * meant for the PostgreSQL server: CI sets TEST_DATABASE_URL). Both must hold on either.
 */

type Headers = Record<string, string>;
let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter += 1)}`;

describe.each(DATABASES)('races on $name', ({ url }) => {
  let server: TestServer;
  let superadmin: Headers;
  const call = (method: 'GET' | 'PUT' | 'POST', path: string, headers: Headers = {}, payload?: object) =>
    server.app.inject({ method, url: `/api/v1${path}`, headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    server = await startTestServer(url);
    superadmin = await signIn(server.app, 'superadmin@demo.cutdesk.test');
  });
  afterAll(async () => {
    await server?.close();
  });

  async function newOwner(): Promise<Headers> {
    const email = `${unique('race-owner')}@example.com`;
    const registered = await call('POST', '/register', {}, { email, password: 'race-password', firstName: 'Rae', lastName: 'Race', phone: '5551234' });
    expect(registered.statusCode).toBe(201);
    return { authorization: `Bearer ${registered.json<{ token: string }>().token}` };
  }

  it('six parallel POST organizations by one new owner create exactly one organization, owned by them', async () => {
    for (let round = 0; round < 3; round += 1) {
      const owner = await newOwner();
      const names = Array.from({ length: 6 }, (_, index) => unique(`Race Org ${index}`));
      const answers = await Promise.all(names.map((name) => call('POST', '/organizations', owner, { name })));
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
      for (const refused of answers.filter((answer) => answer.statusCode === 409)) expect(refused.json().message).toEqual(expect.any(String));
      const createdId = answers.find((answer) => answer.statusCode === 201)!.json<{ id: number }>().id;
      const me = (await call('GET', '/me', owner)).json<{ organizationId: number }>();
      expect(me.organizationId).toBe(createdId);
      const rows = await server.db.selectFrom('organizations').select('id').where('name', 'in', names).execute();
      expect(rows.map((row) => row.id)).toEqual([createdId]);
    }
  });

  it('lowering the credits while projects are being sent answers 200, 400 or 409 — never 500 — and never loses count', async () => {
    const owner = await newOwner();
    const created = await call('POST', '/organizations', owner, { name: unique('Credit Race') });
    const organizationId = created.json<{ id: number }>().id;
    const today = businessToday();
    const plan = (credits: number) => ({ startDate: today, endDate: '2099-12-31', renewable: false, credits, interval: 1, creditsPerInterval: 0, storage: 1 });
    expect((await call('PUT', `/organizations/${organizationId}/credits`, superadmin, plan(30))).statusCode).toBe(200);
    const brief = { audience: 'Everyone', goal: 'Sign-ups', finalVideoLength: '0-60 seconds', brief: 'Fast cuts.' };
    const projectIds: number[] = [];
    for (let index = 0; index < 24; index += 1) {
      const project = await call('POST', `/organizations/${organizationId}/projects`, owner, { name: `Race ${index}`, ...brief });
      expect(project.statusCode).toBe(201);
      projectIds.push(project.json<{ id: number }>().id);
    }
    // Sends and lowerings interleave: each lowering reads the used credits, then writes a total
    // that a send may have overtaken meanwhile.
    const sends = projectIds.map((id) => call('POST', `/projects/${id}/submit`, owner));
    const lowerings = [20, 16, 12, 10, 8, 6, 4, 2].map((credits) => call('PUT', `/organizations/${organizationId}/credits`, superadmin, plan(credits)));
    const [sent, lowered] = await Promise.all([Promise.all(sends), Promise.all(lowerings)]);
    for (const answer of [...sent, ...lowered]) {
      expect([200, 400, 409], answer.body).toContain(answer.statusCode);
      if (answer.statusCode !== 200) expect(answer.json().message).toEqual(expect.any(String));
    }
    const credits = await server.db
      .selectFrom('credits')
      .select(['usedCredits', 'activeCredits'])
      .where('organizationId', '=', organizationId)
      .executeTakeFirstOrThrow();
    expect(credits.usedCredits).toBe(sent.filter((answer) => answer.statusCode === 200).length);
    expect(credits.usedCredits).toBeLessThanOrEqual(credits.activeCredits);
    const moved = await server.db.selectFrom('projects').select('id').where('id', 'in', projectIds).where('status', '!=', 'OPENED').execute();
    expect(moved.length).toBe(credits.usedCredits);
  }, 60_000);

  it("a lowering below the credits already used is the form's 400 on the credits field", async () => {
    const owner = await newOwner();
    const organizationId = (await call('POST', '/organizations', owner, { name: unique('Credit Conflict') })).json<{ id: number }>().id;
    const plan = (credits: number) => ({
      startDate: businessToday(),
      endDate: '2099-12-31',
      renewable: false,
      credits,
      interval: 1,
      creditsPerInterval: 0,
      storage: 1,
    });
    expect((await call('PUT', `/organizations/${organizationId}/credits`, superadmin, plan(5))).statusCode).toBe(200);
    // Below the used credits as read: the form's own 400.
    await server.db.updateTable('credits').set({ usedCredits: 3 }).where('organizationId', '=', organizationId).execute();
    const refused = await call('PUT', `/organizations/${organizationId}/credits`, superadmin, plan(2));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields.credits).toEqual(expect.any(String));
  });
});
