import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_MESSAGES } from '../../src/domain/user-management.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from '../server/harness.ts';

/**
 * Issue 9, second attack: an admin signed in as a customer (Log In As) could add users to the
 * organization and change a user's e-mail, then recover that account's password: an account of
 * theirs in the customer's organization, outliving the impersonation and their own access.
 * Staff acting as the customer may look at its users but change none of them.
 */

type Headers = Record<string, string>;

describe.each(DATABASES)("impersonation and the customer's users on $name", ({ url }) => {
  let server: TestServer;
  let asOwner: Headers;
  let owner: Headers;
  let userId: number;
  let organizationId: number;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', path: string, headers: Headers, payload?: object) =>
    server.app.inject({ method, url: `/api/v1${path}`, headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    server = await startTestServer(url);
    const admin = await signIn(server.app, 'admin@demo.cutdesk.test');
    owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    organizationId = (await server.db.selectFrom('organizations').select('id').where('name', '=', 'Demo Studio').executeTakeFirstOrThrow()).id;
    userId = (await server.db.selectFrom('users').select('id').where('email', '=', 'user@demo.cutdesk.test').executeTakeFirstOrThrow()).id;
    const login = await call('GET', `/organizations/${organizationId}/admin/login`, admin);
    expect(login.statusCode, login.body).toBe(200);
    asOwner = { authorization: `Bearer ${login.json<{ token: string }>().token}` };
  });
  afterAll(async () => server?.close());

  it('lets the admin read the users but not add, change, disable, invite or delete them', async () => {
    const listed = await call('GET', `/organizations/${organizationId}/users?start=0&limit=100`, asOwner);
    expect(listed.statusCode, listed.body).toBe(200);
    const attempts = [
      call('POST', '/users', asOwner, { email: 'backdoor@example.com', firstName: 'Back', lastName: 'Door', phone: '5551234', role: 'User' }),
      call('PATCH', `/users/${userId}`, asOwner, { email: 'attacker@example.com', firstName: 'Uma', lastName: 'User', phone: '5551234' }),
      call('PATCH', `/users/${userId}`, asOwner, { isEnabled: 0 }),
      call('PATCH', `/users/${userId}/invite-link`, asOwner),
      call('DELETE', `/users/${userId}`, asOwner),
    ];
    for (const answer of await Promise.all(attempts)) {
      expect(answer.statusCode, answer.body).toBe(403);
      expect(answer.json().message).toBe(USER_MESSAGES.impersonating);
    }
    const user = await server.db.selectFrom('users').select(['email', 'isEnabled', 'deletedAt']).where('id', '=', userId).executeTakeFirstOrThrow();
    expect(user).toEqual({ email: 'user@demo.cutdesk.test', isEnabled: true, deletedAt: null });
    expect(await server.db.selectFrom('users').select('id').where('email', '=', 'backdoor@example.com').executeTakeFirst()).toBeUndefined();
  });

  it('still lets the owner, signed in as themselves, manage their users', async () => {
    const edited = await call('PATCH', `/users/${userId}`, owner, { email: 'user@demo.cutdesk.test', firstName: 'Uma', lastName: 'User', phone: '5551234' });
    expect(edited.statusCode, edited.body).toBe(200);
  });
});
