import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usersRepo } from '../../server/repositories/users.ts';
import { issueAccessLink } from '../../server/services/access-links.ts';
import { SESSION_MAX_DAYS } from '../../server/services/tokens.ts';
import { DATABASES, DEMO_PASSWORD, signIn, startTestServer, type TestServer } from '../server/harness.ts';

/**
 * Issue 9, sessions: a password change or reset, a disable and a delete end every session of
 * the user (the session version on the user row); a session ends SESSION_MAX_DAYS after its
 * sign-in whatever the refreshes; impersonation keeps working and ends with either side.
 */

type Headers = Record<string, string>;
const DAY = 86_400;
let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter += 1)}@example.com`;
const bearer = (token: string): Headers => ({ authorization: `Bearer ${token}` });

describe.each(DATABASES)('sessions on $name', ({ url }) => {
  let server: TestServer;
  const call = (method: 'GET' | 'PUT' | 'PATCH' | 'DELETE' | 'POST', path: string, headers: Headers = {}, payload?: object) =>
    server.app.inject({ method, url: `/api/v1${path}`, headers, ...(payload ? { payload } : {}) });
  const meStatus = async (headers: Headers) => (await call('GET', '/me', headers)).statusCode;

  beforeAll(async () => {
    server = await startTestServer(url);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A new owner through the API, with two sessions (two sign-ins). */
  async function newOwner(): Promise<{ email: string; id: number; first: Headers; second: Headers }> {
    const email = unique('owner');
    const registered = await call('POST', '/register', {}, { email, password: 'first-password', firstName: 'Sam', lastName: 'Session', phone: '5551234' });
    expect(registered.statusCode).toBe(201);
    const first = bearer(registered.json<{ token: string }>().token);
    const second = await signIn(server.app, email, 'first-password');
    const id = (await call('GET', '/me', first)).json<{ id: number }>().id;
    return { email, id, first, second };
  }

  async function resetPassword(email: string, newPassword: string) {
    const user = (await usersRepo(server.db).findByEmail(email))!;
    const link = new URL(await issueAccessLink(server.app.ctx, user, 'recovery', 3_600_000));
    return call('PUT', '/password-recover-complete', {}, { email, recoveryCode: link.searchParams.get('code'), newPassword });
  }

  it('a password reset ends every older session; the client that changed it stays signed in', async () => {
    const owner = await newOwner();
    expect(await meStatus(owner.first)).toBe(200);
    const reset = await resetPassword(owner.email, 'second-password');
    expect(reset.statusCode).toBe(200);
    const fresh = bearer(reset.json<{ token: string }>().token);
    expect(await meStatus(owner.first)).toBe(401);
    expect(await meStatus(owner.second)).toBe(401);
    expect((await call('PUT', '/me/refresh-token', owner.second)).statusCode).toBe(401);
    expect(await meStatus(fresh)).toBe(200);
    // The new password signs in; the new session is of the new version.
    expect(await meStatus(await signIn(server.app, owner.email, 'second-password'))).toBe(200);
  });

  it('an invitation accepted (the same change-password call) also ends older sessions', async () => {
    const owner = await newOwner();
    const user = (await usersRepo(server.db).findByEmail(owner.email))!;
    const link = new URL(await issueAccessLink(server.app.ctx, user, 'invite', 3_600_000));
    const done = await call(
      'PUT',
      '/password-recover-complete',
      {},
      { email: owner.email, recoveryCode: link.searchParams.get('code'), newPassword: 'third-password' },
    );
    expect(done.statusCode).toBe(200);
    expect(await meStatus(owner.first)).toBe(401);
    expect(await meStatus(bearer(done.json<{ token: string }>().token))).toBe(200);
  });

  it('disabling a user ends their sessions, and enabling them again does not revive old tokens', async () => {
    const ownerHeaders = await signIn(server.app, 'owner@demo.cutdesk.test');
    const email = unique('member');
    const created = await call('POST', '/users', ownerHeaders, { email, firstName: 'Mia', lastName: 'Member', phone: '5551234', role: 'User' });
    expect(created.statusCode).toBe(201);
    const memberId = created.json<{ id: number }>().id;
    const user = (await usersRepo(server.db).findByEmail(email))!;
    const link = new URL(await issueAccessLink(server.app.ctx, user, 'invite', 3_600_000));
    const accepted = await call(
      'PUT',
      '/password-recover-complete',
      {},
      { email, recoveryCode: link.searchParams.get('code'), newPassword: 'member-password' },
    );
    const session = bearer(accepted.json<{ token: string }>().token);
    expect(await meStatus(session)).toBe(200);
    expect((await call('PATCH', `/users/${memberId}`, ownerHeaders, { isEnabled: 0 })).statusCode).toBe(200);
    expect(await meStatus(session)).toBe(401);
    expect((await call('PATCH', `/users/${memberId}`, ownerHeaders, { isEnabled: 1 })).statusCode).toBe(200);
    expect(await meStatus(session)).toBe(401);
    expect(await meStatus(await signIn(server.app, email, 'member-password'))).toBe(200);
    // Deleting: the session version rises with the row, so no token of the account survives.
    const again = await signIn(server.app, email, 'member-password');
    const before = (await server.db.selectFrom('users').select('sessionVersion').where('id', '=', memberId).executeTakeFirstOrThrow()).sessionVersion;
    expect((await call('DELETE', `/users/${memberId}`, ownerHeaders)).statusCode).toBe(204);
    expect(await meStatus(again)).toBe(401);
    const after = await server.db.selectFrom('users').select('sessionVersion').where('id', '=', memberId).executeTakeFirstOrThrow();
    expect(after.sessionVersion).toBe(before + 1);
  });

  it('a refresh keeps the sign-in time; a session ends SESSION_MAX_DAYS after it whatever the refreshes', async () => {
    const owner = await newOwner();
    const signedIn = decodeJwt(owner.first.authorization!.slice(7));
    const refreshed = await call('PUT', '/me/refresh-token', owner.first);
    expect(refreshed.statusCode).toBe(200);
    const claims = decodeJwt(refreshed.json<{ token: string }>().token);
    expect(claims.sat).toBe(signedIn.sat);
    expect(claims.sv).toBe(0);

    const user = (await usersRepo(server.db).findByEmail(owner.email))!;
    const now = Math.floor(Date.now() / 1000);
    // A session signed in 29.5 days ago: still valid, but a refresh cannot reach past day 30.
    const old = await server.app.ctx.tokens.sign({
      userId: user.id,
      impersonatorId: null,
      sessionVersion: user.sessionVersion,
      signedInAt: now - Math.round((SESSION_MAX_DAYS - 0.5) * DAY),
    });
    expect(await meStatus(bearer(old))).toBe(200);
    const last = await call('PUT', '/me/refresh-token', bearer(old));
    expect(last.statusCode).toBe(200);
    const lastClaims = decodeJwt(last.json<{ token: string }>().token);
    expect(lastClaims.exp).toBe((lastClaims.sat as number) + SESSION_MAX_DAYS * DAY);
    // Past the absolute lifetime, the token and its refresh are refused: sign in again.
    const expired = await server.app.ctx.tokens.sign({
      userId: user.id,
      impersonatorId: null,
      sessionVersion: user.sessionVersion,
      signedInAt: now - SESSION_MAX_DAYS * DAY - 60,
    });
    expect(await meStatus(bearer(expired))).toBe(401);
    expect((await call('PUT', '/me/refresh-token', bearer(expired))).statusCode).toBe(401);
  });

  it("impersonation works and refreshes, and ends with the owner's reset or the admin's own revocation", async () => {
    const owner = await newOwner();
    const ownerSession = await signIn(server.app, owner.email, 'first-password');
    expect((await call('POST', '/organizations', ownerSession, { name: `Session Org ${counter}-${Date.now()}` })).statusCode).toBe(201);
    const organizationId = (await call('GET', '/me', ownerSession)).json<{ organizationId: number }>().organizationId;

    // A throwaway admin, so the demo admin's sessions stay as they are.
    const adminEmail = unique('admin');
    const superadmin = await signIn(server.app, 'superadmin@demo.cutdesk.test');
    const created = await call('POST', '/users', superadmin, { email: adminEmail, firstName: 'Ada', lastName: 'Admin', role: 'Admin' });
    expect(created.statusCode).toBe(201);
    const adminRow = (await usersRepo(server.db).findByEmail(adminEmail))!;
    const link = new URL(await issueAccessLink(server.app.ctx, adminRow, 'invite', 3_600_000));
    const accepted = await call(
      'PUT',
      '/password-recover-complete',
      {},
      { email: adminEmail, recoveryCode: link.searchParams.get('code'), newPassword: DEMO_PASSWORD },
    );
    const admin = bearer(accepted.json<{ token: string }>().token);

    const login = async () => {
      const response = await call('GET', `/organizations/${organizationId}/admin/login`, admin);
      expect(response.statusCode).toBe(200);
      return bearer(response.json<{ token: string }>().token);
    };
    const impersonation = await login();
    const me = (await call('GET', '/me', impersonation)).json<{ id: number; impersonatedBy: number }>();
    expect(me).toMatchObject({ id: owner.id, impersonatedBy: adminRow.id });
    const refreshed = await call('PUT', '/me/refresh-token', impersonation);
    expect(refreshed.statusCode).toBe(200);
    const refreshedSession = bearer(refreshed.json<{ token: string }>().token);
    expect((await call('GET', '/me', refreshedSession)).json<{ impersonatedBy: number }>().impersonatedBy).toBe(adminRow.id);

    // The owner resets the password: the impersonation is one of the owner's sessions.
    expect((await resetPassword(owner.email, 'fourth-password')).statusCode).toBe(200);
    expect(await meStatus(impersonation)).toBe(401);
    expect(await meStatus(refreshedSession)).toBe(401);

    // A new impersonation works; the admin's own password reset ends it.
    const second = await login();
    expect(await meStatus(second)).toBe(200);
    expect((await resetPassword(adminEmail, 'admin-new-password')).statusCode).toBe(200);
    expect(await meStatus(second)).toBe(401);
    expect(await meStatus(admin)).toBe(401);
  });

  it('tokens signed before session versions existed still work for a user at version 0', async () => {
    const owner = await newOwner();
    const { SignJWT } = await import('jose');
    const legacy = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(owner.id))
      .setIssuedAt()
      .setExpirationTime('7d')
      .sign(new TextEncoder().encode(server.config.jwtSecret));
    expect(await meStatus(bearer(legacy))).toBe(200);
    expect((await resetPassword(owner.email, 'fifth-password')).statusCode).toBe(200);
    expect(await meStatus(bearer(legacy))).toBe(401);
  });
});
