import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, RECOVERY_CODE_ERROR } from '../../src/domain/messages.ts';
import { FIELD_MESSAGES } from '../../src/domain/validation.ts';
import { changePasswordLink, readOutbox } from '../support/outbox.ts';
import { DATABASES, DEMO_PASSWORD, signIn, startTestServer, type TestServer } from './harness.ts';

const OWNER = 'owner@demo.cutdesk.test';
const newAccount = (email: string) => ({
  email,
  password: 'secret123',
  firstName: 'Nora',
  lastName: 'New',
  phone: '5551234',
  role: 'Owner',
  code: 'cutdesk-web',
});

describe.each(DATABASES)('foundation API on $name', ({ url }) => {
  let server: TestServer;
  const call = (method: 'GET' | 'POST' | 'PUT', path: string, payload?: unknown, headers: Record<string, string> = {}) =>
    server.app.inject({ method, url: `/api/v1${path}`, payload: payload as object, headers });

  beforeAll(async () => {
    server = await startTestServer(url);
  });
  afterAll(async () => server?.close());

  it('reports health once migrated', async () => {
    const response = await call('GET', '/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  describe('login', () => {
    it('returns a token and the organization id', async () => {
      const response = await call('POST', '/login', { email: OWNER, password: DEMO_PASSWORD });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.token).toMatch(/^ey/);
      expect(body.organizationId).toBeGreaterThan(0);
    });

    it('answers staff with no organization', async () => {
      const response = await call('POST', '/login', { email: 'admin@demo.cutdesk.test', password: DEMO_PASSWORD });
      expect(response.json().organizationId).toBeNull();
    });

    it.each([
      ['a wrong password', { email: OWNER, password: 'wrong-password' }],
      ['an unknown e-mail', { email: 'nobody@demo.cutdesk.test', password: DEMO_PASSWORD }],
    ])('refuses %s with the login-failure text', async (_label, payload) => {
      const response = await call('POST', '/login', payload);
      expect(response.statusCode).toBe(401);
      expect(response.json().message).toBe(MESSAGES.loginFailed);
    });

    it('answers bad input with 400 and field messages', async () => {
      const response = await call('POST', '/login', { email: 'not-an-email' });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toEqual({ email: FIELD_MESSAGES.emailInvalid, password: FIELD_MESSAGES.passwordRequired });
    });

    it('answers malformed JSON with 400', async () => {
      const response = await server.app.inject({ method: 'POST', url: '/api/v1/login', payload: '{bad', headers: { 'content-type': 'application/json' } });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBeTruthy();
    });

    it('refuses a bot-check token that scores 0', async () => {
      const response = await call('POST', '/login', { email: OWNER, password: DEMO_PASSWORD, code: 'bot' });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe(MESSAGES.botCheckFailed);
    });
  });

  describe('me and token refresh', () => {
    it('describes the signed-in user', async () => {
      const response = await call('GET', '/me', undefined, await signIn(server.app, OWNER));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        role: { name: 'OWNER' },
        firstName: 'Olivia',
        lastName: 'Owner',
        name: 'Olivia Owner',
        organizationName: 'Demo Studio',
        profilePictureUrl: null,
      });
    });

    it.each([
      ['no token', {}],
      ['a forged token', { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.forged' }],
    ])('refuses %s with 401', async (_label, headers) => {
      expect((await call('GET', '/me', undefined, headers)).statusCode).toBe(401);
    });

    it('refreshes the token', async () => {
      const response = await call('PUT', '/me/refresh-token', undefined, await signIn(server.app, OWNER));
      expect(response.statusCode).toBe(200);
      const me = await call('GET', '/me', undefined, { authorization: `Bearer ${response.json().token}` });
      expect(me.json().email).toBe(OWNER);
    });

    it('stops a disabled or deleted user at once', async () => {
      const register = await call('POST', '/register', newAccount('soon-disabled@example.com'));
      const headers = { authorization: `Bearer ${register.json().token}` };
      expect((await call('GET', '/me', undefined, headers)).statusCode).toBe(200);
      await server.db.updateTable('users').set({ isEnabled: false }).where('email', '=', 'soon-disabled@example.com').execute();
      expect((await call('GET', '/me', undefined, headers)).statusCode).toBe(401);
      await server.db.updateTable('users').set({ isEnabled: true, deletedAt: new Date() }).where('email', '=', 'soon-disabled@example.com').execute();
      expect((await call('GET', '/me', undefined, headers)).statusCode).toBe(401);
    });
  });

  describe('registration and organization', () => {
    it('registers an owner, then creates the organization', async () => {
      const register = await call('POST', '/register', newAccount('nora@example.com'));
      expect(register.statusCode).toBe(201);
      expect(register.json().organizationId).toBeNull();
      const headers = { authorization: `Bearer ${register.json().token}` };
      const created = await call('POST', '/organizations', { name: "Nora's Films" }, headers);
      expect(created.statusCode).toBe(201);
      const { id } = created.json();
      const me = (await call('GET', '/me', undefined, headers)).json();
      expect(me).toMatchObject({ role: { name: 'OWNER' }, organizationId: id, organizationName: "Nora's Films" });
      const organization = await call('GET', `/organizations/${id}`, undefined, headers);
      expect(organization.statusCode).toBe(200);
      expect(organization.json()).toMatchObject({ id, storage: expect.any(Number), usedSpace: 0, status: { id: 1 }, credits: { status: 'INACTIVE' } });
      const login = await call('POST', '/login', { email: 'nora@example.com', password: 'secret123' });
      expect(login.json().organizationId).toBe(id);

      const second = await call('POST', '/organizations', { name: 'Another One' }, headers);
      expect(second.statusCode).toBe(409);
      expect(second.json().message).toBe(MESSAGES.alreadyInOrganization);
    });

    it('refuses an e-mail already used, whatever its case', async () => {
      const response = await call('POST', '/register', newAccount('OWNER@demo.cutdesk.test'));
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ message: MESSAGES.emailAlreadyRegistered, fields: { email: MESSAGES.emailAlreadyRegistered } });
    });

    it.each([
      ['phone', { phone: '555-abc' }, FIELD_MESSAGES.phoneDigits],
      ['phone', { phone: '12345678901234' }, FIELD_MESSAGES.phoneTooLong(13)],
      ['firstName', { firstName: 'x'.repeat(50) }, FIELD_MESSAGES.registerNameTooLong],
      ['lastName', { lastName: '' }, FIELD_MESSAGES.nameRequired],
      ['password', { password: '12345' }, FIELD_MESSAGES.passwordTooShort],
      ['email', { email: '' }, FIELD_MESSAGES.emailRequired],
      ['email', { email: `${'a'.repeat(95)}@x.com` }, FIELD_MESSAGES.emailTooLong],
    ])('answers a bad %s with its message', async (field, change, message) => {
      const response = await call('POST', '/register', { ...newAccount('valid@example.com'), ...change });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields[field]).toBe(message);
    });

    it('refuses a registration whose bot check scores 0', async () => {
      expect((await call('POST', '/register', { ...newAccount('robot@example.com'), code: 'bot' })).statusCode).toBe(403);
    });

    it.each([
      ['', FIELD_MESSAGES.organizationRequired],
      ['-Dash first', FIELD_MESSAGES.organizationFirstCharacter],
      ['Two  spaces', FIELD_MESSAGES.organizationDoubleSpace],
      ['Bad#chars', FIELD_MESSAGES.organizationCharacters],
      ['x'.repeat(100), FIELD_MESSAGES.organizationTooLong],
    ])('refuses the organization name %j', async (name, message) => {
      const register = await call('POST', '/register', newAccount(`org-${Math.random().toString(36).slice(2)}@example.com`));
      const response = await call('POST', '/organizations', { name }, { authorization: `Bearer ${register.json().token}` });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields.name).toBe(message);
    });

    it('refuses a duplicate organization name, whatever its case', async () => {
      const register = await call('POST', '/register', newAccount('dup-org@example.com'));
      const response = await call('POST', '/organizations', { name: 'demo studio' }, { authorization: `Bearer ${register.json().token}` });
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(MESSAGES.organizationExists);
    });

    it('hides other organizations from customers and shows them to staff', async () => {
      const register = await call('POST', '/register', newAccount('outsider@example.com'));
      const outsider = { authorization: `Bearer ${register.json().token}` };
      const demoId = (await call('POST', '/login', { email: OWNER, password: DEMO_PASSWORD })).json().organizationId;
      expect((await call('GET', `/organizations/${demoId}`, undefined, outsider)).statusCode).toBe(404);
      expect((await call('GET', `/organizations/${demoId}`)).statusCode).toBe(401);
      expect((await call('GET', '/organizations/abc', undefined, outsider)).statusCode).toBe(404);
      const asStaff = await call('GET', `/organizations/${demoId}`, undefined, await signIn(server.app, 'admin@demo.cutdesk.test'));
      expect(asStaff.statusCode).toBe(200);
      expect(asStaff.json().credits).toMatchObject({ status: 'ACTIVE', activeCredits: 10 });
    });
  });

  it('scores bot-check tokens', async () => {
    expect((await call('GET', '/score?token=abc')).json()).toEqual({ score: 0.9 });
    expect((await call('GET', '/score?token=bot')).json()).toEqual({ score: 0 });
  });

  describe('password recovery', () => {
    it('answers 204 for an unknown e-mail and sends nothing', async () => {
      const before = (await readOutbox(server.dataDir)).length;
      const response = await call('PUT', '/password-recover', { email: 'ghost@example.com' });
      expect(response.statusCode).toBe(204);
      expect((await readOutbox(server.dataDir)).length).toBe(before);
    });

    it('mails a single-use link that sets a new password', async () => {
      await call('POST', '/register', newAccount('forgetful@example.com'));
      expect((await call('PUT', '/password-recover', { email: '  forgetful@example.com ' })).statusCode).toBe(204);
      const link = await changePasswordLink(server.dataDir, 'forgetful@example.com');
      expect(link.pathname).toBe('/change-password');
      expect(link.searchParams.get('email')).toBe('forgetful@example.com');
      const body = { email: 'forgetful@example.com', recoveryCode: link.searchParams.get('code'), newPassword: 'brand-new-1' };

      const done = await call('PUT', '/password-recover-complete', body);
      expect(done.statusCode).toBe(200);
      expect(done.json()).toMatchObject({ token: expect.any(String), organizationId: null });
      expect((await call('POST', '/login', { email: 'forgetful@example.com', password: 'secret123' })).statusCode).toBe(401);
      expect((await call('POST', '/login', { email: 'forgetful@example.com', password: 'brand-new-1' })).statusCode).toBe(200);

      const again = await call('PUT', '/password-recover-complete', body);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({ code: RECOVERY_CODE_ERROR, message: MESSAGES.recoveryCodeInvalid });
    });

    it('refuses a wrong or expired code with data code 100', async () => {
      await call('POST', '/register', newAccount('expired@example.com'));
      await call('PUT', '/password-recover', { email: 'expired@example.com' });
      const code = (await changePasswordLink(server.dataDir, 'expired@example.com')).searchParams.get('code');
      const wrong = await call('PUT', '/password-recover-complete', { email: 'expired@example.com', recoveryCode: 'nope', newPassword: 'whatever1' });
      expect(wrong.json().code).toBe(RECOVERY_CODE_ERROR);
      await server.db
        .updateTable('accessCodes')
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .execute();
      const expired = await call('PUT', '/password-recover-complete', { email: 'expired@example.com', recoveryCode: code, newPassword: 'whatever1' });
      expect(expired.statusCode).toBe(400);
      expect(expired.json().code).toBe(RECOVERY_CODE_ERROR);
    });

    it('checks the new password', async () => {
      const response = await call('PUT', '/password-recover-complete', { email: OWNER, recoveryCode: 'x', newPassword: '123' });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields.newPassword).toBe(FIELD_MESSAGES.passwordTooShort);
    });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await call('GET', '/no-such-thing');
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe(MESSAGES.notFound);
  });
});

describe('rate limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(null, { env: { RATE_LIMIT_PER_EMAIL: '3', RATE_LIMIT_PER_IP: '5' } });
  });
  afterAll(async () => server?.close());

  it('limits login attempts per e-mail, then per IP', async () => {
    const attempt = (email: string) => server.app.inject({ method: 'POST', url: '/api/v1/login', payload: { email, password: 'wrong-password' } });
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await attempt(OWNER)).statusCode);
    expect(codes).toEqual([401, 401, 401, 429]);
    expect((await attempt(OWNER)).json().message).toBe(MESSAGES.tooManyRequests);
    expect((await attempt('user@demo.cutdesk.test')).statusCode).toBe(429); // the sixth attempt from this IP
  });
});
