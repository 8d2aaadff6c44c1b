import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Impersonation } from '../../src/domain/contract/impersonations.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from './harness.ts';

type Headers = Record<string, string>;

const EMAILS = {
  SUPERADMIN: 'superadmin@demo.cutdesk.test',
  ADMIN: 'admin@demo.cutdesk.test',
  EDITOR: 'editor@demo.cutdesk.test',
  OWNER: 'owner@demo.cutdesk.test',
};

const exp = (token: string) => new Date((JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp * 1000).toISOString();

/** Issue 36 item 10: Log In As leaves a trail a superadmin reads (who, as whom, when, how long). */
describe.each(DATABASES)('the Log In As trail on $name', ({ url }) => {
  let server: TestServer;
  const as = {} as Record<keyof typeof EMAILS, Headers>;
  let demoId: number;
  let adminId: number;

  const call = (method: 'GET' | 'POST' | 'PUT', path: string, headers: Headers, payload?: object) =>
    server.app.inject({ method, url: `/api/v1${path}`, headers, ...(payload ? { payload } : {}) });
  const trail = async (query = '') => {
    const response = await call('GET', `/impersonations${query}`, as.SUPERADMIN);
    expect(response.statusCode).toBe(200);
    return response.json<Impersonation[]>();
  };
  const logInAs = async (who: Headers, organizationId = demoId) => {
    const response = await call('GET', `/organizations/${organizationId}/admin/login`, who);
    expect(response.statusCode).toBe(200);
    const token = response.json<{ token: string }>().token;
    return { token, session: { authorization: `Bearer ${token}` } };
  };

  beforeAll(async () => {
    server = await startTestServer(url);
    for (const [actor, email] of Object.entries(EMAILS)) as[actor as keyof typeof EMAILS] = await signIn(server.app, email);
    demoId = (await server.db.selectFrom('organizations').select('id').where('name', '=', 'Demo Studio').executeTakeFirstOrThrow()).id;
    adminId = (await server.db.selectFrom('users').select('id').where('email', '=', EMAILS.ADMIN).executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => server?.close());

  it('records who, as whom, from where and until when; the end when the admin returns; newest first', async () => {
    const before = Date.now();
    const { token, session } = await logInAs(as.ADMIN);
    const owner = await server.db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('organizationId', '=', demoId)
      .where('role', '=', 'OWNER')
      .executeTakeFirstOrThrow();
    let [row] = await trail();
    expect(row).toMatchObject({
      staff: { id: adminId, name: expect.stringMatching(/\S/) },
      organization: { id: demoId, name: 'Demo Studio' },
      customer: { id: owner.id, email: owner.email },
      endedAt: null,
      endedBy: null,
      expiresAt: exp(token),
      clientAddress: '127.0.0.1',
    });
    expect(Date.parse(row!.startedAt)).toBeGreaterThanOrEqual(before - 1000);

    // A refresh of the impersonation token moves the session's expiry.
    await server.db
      .updateTable('impersonations')
      .set({ expiresAt: new Date(before) })
      .where('id', '=', row!.id)
      .execute();
    const refreshed = (await call('PUT', '/me/refresh-token', session)).json<{ token: string }>().token;
    [row] = await trail();
    expect(row!.expiresAt).toBe(exp(refreshed));

    // Admin logout records the end; the first end recorded stays.
    expect((await call('POST', '/impersonations/end', session)).statusCode).toBe(204);
    [row] = await trail();
    expect(row!.endedBy).toBe('staff');
    const endedAt = row!.endedAt!;
    expect(Date.parse(endedAt)).toBeGreaterThanOrEqual(Date.parse(row!.startedAt));
    await call('POST', '/impersonations/end', session);
    expect((await trail())[0]!.endedAt).toBe(endedAt);

    // The newest first, paged.
    await logInAs(as.SUPERADMIN);
    const [newest, next] = await trail();
    expect(newest!.staff.name).not.toBe('');
    expect(newest!.id).toBeGreaterThan(next!.id);
    expect(next!.id).toBe(row!.id);
    const second = await trail('?start=1&limit=1');
    expect(second.map((r) => r.id)).toEqual([row!.id]);
  });

  it('says a session with no end recorded ended by expiry once its token expired', async () => {
    await logInAs(as.ADMIN);
    const [row] = await trail();
    const expired = new Date(Date.now() - 60_000);
    await server.db.updateTable('impersonations').set({ expiresAt: expired }).where('id', '=', row!.id).execute();
    const [after] = await trail();
    expect(after).toMatchObject({ id: row!.id, endedBy: 'expiry', endedAt: expired.toISOString(), expiresAt: expired.toISOString() });
  });

  it('stores no token', async () => {
    const { token } = await logInAs(as.ADMIN);
    const stored = await server.db.selectFrom('impersonations').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(Object.keys(stored).sort()).toEqual(['adminId', 'clientAddress', 'createdAt', 'customerUserId', 'endedAt', 'expiresAt', 'id', 'organizationId']);
    const text = JSON.stringify(stored);
    expect(text).not.toContain(token);
    expect(text).not.toContain(token.split('.')[2]!);
    expect(text).not.toMatch(/eyJ/);
    expect(JSON.stringify(await trail())).not.toMatch(/eyJ/);
  });

  it('is a superadmin’s only: an admin, an editor, a customer and an impersonation token get 403, no session 401', async () => {
    const { session } = await logInAs(as.SUPERADMIN);
    for (const who of [as.ADMIN, as.EDITOR, as.OWNER, session]) expect((await call('GET', '/impersonations', who)).statusCode).toBe(403);
    expect((await call('GET', '/impersonations', {})).statusCode).toBe(401);
    // Only an impersonation token ends a session on the trail.
    expect((await call('POST', '/impersonations/end', as.SUPERADMIN)).statusCode).toBe(403);
    expect((await call('GET', '/impersonations?limit=101', as.SUPERADMIN)).statusCode).toBe(400);
  });
});
