import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparePhones, compareText } from '../../src/domain/collation.ts';
import { INVITE_CODE_LIFETIME_DAYS } from '../../src/domain/constants.ts';
import { MESSAGES } from '../../src/domain/messages.ts';
import { ORGANIZATION_MESSAGES } from '../../src/domain/organization-rules.ts';
import { TRIAL_DAYS, USER_MESSAGES, trialRegistrationLink } from '../../src/domain/user-management.ts';
import { FIELD_MESSAGES } from '../../src/domain/validation.ts';
import { changePasswordLink, readOutbox } from '../support/outbox.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from './harness.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Headers = Record<string, string>;

const ACTORS = ['SUPERADMIN', 'ADMIN', 'EDITOR', 'OWNER', 'USER', 'OTHER_OWNER', 'ANONYMOUS', 'IMPERSONATION'] as const;
type Actor = (typeof ACTORS)[number];

const EMAILS: Partial<Record<Actor, string>> = {
  SUPERADMIN: 'superadmin@demo.cutdesk.test',
  ADMIN: 'admin@demo.cutdesk.test',
  EDITOR: 'editor@demo.cutdesk.test',
  OWNER: 'owner@demo.cutdesk.test',
  USER: 'user@demo.cutdesk.test',
  OTHER_OWNER: 'nina@northwind.demo.cutdesk.test',
};

let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter += 1)}@example.com`;
const newUserBody = (overrides: Record<string, unknown> = {}) => ({
  email: unique('member'),
  firstName: 'Mia',
  lastName: 'Member',
  phone: '5551234',
  role: 'User',
  ...overrides,
});
const newEditorBody = (overrides: Record<string, unknown> = {}) => ({
  email: unique('editor'),
  firstName: 'Ed',
  lastName: 'Itor',
  phone: '+1 (555) 010-2000',
  role: 'Editor',
  ...overrides,
});
const TINY_JPEG = `data:image/jpeg;base64,${'A'.repeat(400)}`;

describe.each(DATABASES)('organizations, users, credits and impersonation on $name', ({ url }) => {
  let server: TestServer;
  const as: Record<Actor, Headers> = {} as Record<Actor, Headers>;
  let demoId: number;
  let northwindId: number;
  let blueFernId: number;
  let adminId: number;

  const call = (method: Method, path: string, headers: Headers = {}, payload?: unknown) =>
    server.app.inject({ method, url: `/api/v1${path}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

  const orgId = async (name: string) => (await server.db.selectFrom('organizations').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

  /** A Demo Studio user, straight in the database, for actions that change or remove it. */
  async function freshMember(organizationId = demoId): Promise<number> {
    const row = await server.db
      .insertInto('users')
      .values({
        email: unique('fresh'),
        passwordHash: null,
        firstName: 'Fresh',
        lastName: 'Member',
        phone: '5550000',
        role: 'USER',
        organizationId,
        profilePictureUrl: null,
        assetsPath: null,
        deletedAt: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function freshEditor(): Promise<number> {
    const row = await server.db
      .insertInto('users')
      .values({
        email: unique('fresh-editor'),
        passwordHash: null,
        firstName: 'Fresh',
        lastName: 'Editor',
        phone: null,
        role: 'EDITOR',
        organizationId: null,
        profilePictureUrl: null,
        assetsPath: null,
        deletedAt: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function freshOrganization(name = `Fresh ${Date.now().toString(36)} ${(counter += 1)}`, values: Record<string, unknown> = {}): Promise<number> {
    const { id } = await server.db
      .insertInto('organizations')
      .values({ name, ...values })
      .returning('id')
      .executeTakeFirstOrThrow();
    await server.db.insertInto('credits').values({ organizationId: id, startDate: null, endDate: null, renewDate: null }).execute();
    await server.db
      .insertInto('users')
      .values({
        email: unique('fresh-owner'),
        passwordHash: null,
        firstName: 'Fresh',
        lastName: 'Owner',
        phone: '5550001',
        role: 'OWNER',
        organizationId: id,
        profilePictureUrl: null,
        assetsPath: null,
        deletedAt: null,
      })
      .execute();
    return id;
  }

  /** Sets a password through the invitation link the user was e-mailed; returns the session. */
  async function acceptInvite(email: string, password = 'invited-pass-1') {
    const link = await changePasswordLink(server.dataDir, email);
    expect(link.pathname).toBe('/change-password');
    expect(link.searchParams.get('email')).toBe(email);
    const done = await call('PUT', '/password-recover-complete', {}, { email, recoveryCode: link.searchParams.get('code'), newPassword: password });
    return done;
  }

  beforeAll(async () => {
    server = await startTestServer(url);
    for (const actor of ACTORS) {
      const email = EMAILS[actor];
      if (email) as[actor] = await signIn(server.app, email);
    }
    as.ANONYMOUS = {};
    demoId = await orgId('Demo Studio');
    northwindId = await orgId('Northwind Media');
    blueFernId = await orgId('Blue Fern Bakery');
    adminId = (await server.db.selectFrom('users').select('id').where('email', '=', EMAILS.ADMIN!).executeTakeFirstOrThrow()).id;
    const login = await call('GET', `/organizations/${demoId}/admin/login`, as.ADMIN);
    as.IMPERSONATION = { authorization: `Bearer ${login.json().token}` };
  });
  afterAll(async () => server?.close());

  describe('authorization matrix', () => {
    type Case = { name: string; expect: Record<Actor, number>; request: () => Promise<{ method: Method; path: string; body?: unknown }> };
    const staffOnly = (ok: number): Record<Actor, number> => ({
      SUPERADMIN: ok,
      ADMIN: ok,
      EDITOR: 403,
      OWNER: 403,
      USER: 403,
      OTHER_OWNER: 403,
      ANONYMOUS: 401,
      IMPERSONATION: 403,
    });
    // Staff signed in as the customer see its users but change none of them (issue 9: an added
    // user or a changed e-mail would be an account of the admin's in the customer's organization).
    const ownerManaged = (ok: number): Record<Actor, number> => ({
      SUPERADMIN: 403,
      ADMIN: 403,
      EDITOR: 403,
      OWNER: ok,
      USER: 403,
      OTHER_OWNER: 404,
      ANONYMOUS: 401,
      IMPERSONATION: 403,
    });
    const readable: Record<Actor, number> = {
      SUPERADMIN: 200,
      ADMIN: 200,
      EDITOR: 200,
      OWNER: 200,
      USER: 200,
      OTHER_OWNER: 404,
      ANONYMOUS: 401,
      IMPERSONATION: 200,
    };
    const editorManaged = (ok: number): Record<Actor, number> => ({
      SUPERADMIN: ok,
      ADMIN: ok,
      EDITOR: 403,
      OWNER: 404,
      USER: 404,
      OTHER_OWNER: 404,
      ANONYMOUS: 401,
      IMPERSONATION: 404,
    });

    const cases: Case[] = [
      { name: 'GET organizations/{id}', expect: readable, request: async () => ({ method: 'GET', path: `/organizations/${demoId}` }) },
      { name: 'GET organizations/{id}/users', expect: readable, request: async () => ({ method: 'GET', path: `/organizations/${demoId}/users` }) },
      { name: 'GET organizations/{id}/credits', expect: readable, request: async () => ({ method: 'GET', path: `/organizations/${demoId}/credits` }) },
      {
        name: 'POST users (role User, Demo Studio)',
        expect: { SUPERADMIN: 403, ADMIN: 403, EDITOR: 403, OWNER: 201, USER: 403, OTHER_OWNER: 400, ANONYMOUS: 401, IMPERSONATION: 403 },
        request: async () => ({ method: 'POST', path: '/users', body: newUserBody({ organizationId: demoId }) }),
      },
      {
        name: 'POST users (role Editor)',
        expect: { SUPERADMIN: 201, ADMIN: 201, EDITOR: 403, OWNER: 403, USER: 403, OTHER_OWNER: 403, ANONYMOUS: 401, IMPERSONATION: 403 },
        request: async () => ({ method: 'POST', path: '/users', body: newEditorBody() }),
      },
      {
        name: 'PATCH users/{id} (details)',
        expect: ownerManaged(200),
        request: async () => ({
          method: 'PATCH',
          path: `/users/${await freshMember()}`,
          body: { email: unique('edited'), firstName: 'E', lastName: 'D', phone: '5550002' },
        }),
      },
      {
        name: 'PATCH users/{id} (isEnabled)',
        expect: ownerManaged(200),
        request: async () => ({ method: 'PATCH', path: `/users/${await freshMember()}`, body: { isEnabled: false } }),
      },
      { name: 'DELETE users/{id}', expect: ownerManaged(204), request: async () => ({ method: 'DELETE', path: `/users/${await freshMember()}` }) },
      {
        name: 'PATCH users/{id}/invite-link',
        expect: ownerManaged(204),
        request: async () => ({ method: 'PATCH', path: `/users/${await freshMember()}/invite-link` }),
      },
      { name: 'GET organizations', expect: staffOnly(200), request: async () => ({ method: 'GET', path: '/organizations' }) },
      {
        name: 'DELETE organizations/{id}',
        expect: staffOnly(204),
        request: async () => ({ method: 'DELETE', path: `/organizations/${await freshOrganization()}` }),
      },
      {
        name: 'PATCH organizations/{id}',
        expect: staffOnly(200),
        request: async () => ({ method: 'PATCH', path: `/organizations/${demoId}`, body: { projectReviewPeriod: 7 } }),
      },
      {
        name: 'GET organizations/{id}/admin/login',
        expect: staffOnly(200),
        request: async () => ({ method: 'GET', path: `/organizations/${demoId}/admin/login` }),
      },
      {
        name: 'PUT organizations/{id}/credits',
        expect: staffOnly(200),
        request: async () => ({
          method: 'PUT',
          path: `/organizations/${await freshOrganization()}/credits`,
          body: { startDate: '2026-01-01', endDate: '2026-12-31', renewable: true, credits: 10, interval: 1, creditsPerInterval: 10, storage: 2 },
        }),
      },
      {
        name: 'GET users?role=editor',
        expect: { ...staffOnly(200), EDITOR: 200 },
        request: async () => ({ method: 'GET', path: '/users?role=editor&start=0&limit=50' }),
      },
      { name: 'GET users?role=staff', expect: staffOnly(200), request: async () => ({ method: 'GET', path: '/users?role=staff&start=0&limit=100' }) },
      { name: 'GET users/trial', expect: staffOnly(200), request: async () => ({ method: 'GET', path: '/users/trial?start=0&limit=20' }) },
      {
        name: 'PATCH users/{id} (editor)',
        expect: editorManaged(200),
        request: async () => ({
          method: 'PATCH',
          path: `/users/${await freshEditor()}`,
          body: { email: unique('edited-editor'), firstName: 'E', lastName: 'D' },
        }),
      },
      {
        name: 'PATCH users/{id} (editor isEnabled)',
        expect: editorManaged(200),
        request: async () => ({ method: 'PATCH', path: `/users/${await freshEditor()}`, body: { isEnabled: 0 } }),
      },
      { name: 'DELETE users/{id}/editor', expect: staffOnly(204), request: async () => ({ method: 'DELETE', path: `/users/${await freshEditor()}/editor` }) },
      {
        name: 'PATCH users/{id}/asset-path',
        expect: staffOnly(200),
        request: async () => ({ method: 'PATCH', path: `/users/${await freshEditor()}/asset-path`, body: { path: 'https://drive.example.com/x' } }),
      },
    ];

    it.each(cases.flatMap((c) => ACTORS.map((actor) => [c.name, actor, c] as const)))('%s as %s', async (_name, actor, c) => {
      const { method, path, body } = await c.request();
      const response = await call(method, path, as[actor], body);
      expect(response.statusCode, response.body).toBe(c.expect[actor]);
    });
  });

  describe('customer users (C§7)', () => {
    it('lists the organization users without deleted ones, paged', async () => {
      const deleted = await freshMember();
      await server.db.updateTable('users').set({ deletedAt: new Date() }).where('id', '=', deleted).execute();
      const response = await call('GET', `/organizations/${demoId}/users?start=0&limit=100`, as.OWNER);
      expect(response.statusCode).toBe(200);
      const users = response.json() as { id: number; email: string; role: { name: string }; isEnabled: number; hasPassword: boolean }[];
      expect(users.map((u) => u.id)).not.toContain(deleted);
      expect(users.find((u) => u.email === EMAILS.OWNER)).toMatchObject({ role: { name: 'OWNER' }, isEnabled: 1, hasPassword: true });
      expect(users.find((u) => u.email === 'ivy@demo.cutdesk.test')).toMatchObject({ hasPassword: false });
      const second = (await call('GET', `/organizations/${demoId}/users?start=1&limit=1`, as.OWNER)).json();
      expect(second).toHaveLength(1);
      expect(second[0].id).toBe(users[1]!.id);
    });

    it.each([
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['start=-1', 'start'],
      ['start=abc', 'start'],
    ])('refuses the page query %s', async (query, field) => {
      const response = await call('GET', `/organizations/${demoId}/users?${query}`, as.OWNER);
      expect(response.statusCode).toBe(400);
      expect(response.json().fields[field]).toBeTruthy();
    });

    it('adds a user who sets a password from the invitation e-mail', async () => {
      const body = newUserBody();
      const created = await call('POST', '/users', as.OWNER, body);
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({
        email: body.email,
        role: { name: 'USER' },
        organizationId: demoId,
        isEnabled: 1,
        hasPassword: false,
        deletedAt: null,
      });
      const mail = (await readOutbox(server.dataDir)).filter((m) => m.to.includes(body.email)).at(-1);
      expect(mail?.subject).toContain('Demo Studio');
      expect(mail?.raw).toContain('/change-password?code=');
      expect((await call('POST', '/login', {}, { email: body.email, password: 'invited-pass-1' })).statusCode).toBe(401);
      const done = await acceptInvite(body.email);
      expect(done.statusCode).toBe(200);
      expect(done.json().organizationId).toBe(demoId);
      const login = await call('POST', '/login', {}, { email: body.email, password: 'invited-pass-1' });
      expect(login.statusCode).toBe(200);
      const me = await call('GET', '/me', { authorization: `Bearer ${login.json().token}` });
      expect(me.json()).toMatchObject({ role: { name: 'USER' }, organizationName: 'Demo Studio' });
      const listed = (await call('GET', `/organizations/${demoId}/users`, as.OWNER)).json() as { email: string; hasPassword: boolean }[];
      expect(listed.find((u) => u.email === body.email)?.hasPassword).toBe(true);
    });

    it('refuses an e-mail already used, whatever its case and role', async () => {
      for (const email of ['USER@demo.cutdesk.test', 'Admin@Demo.Cutdesk.Test']) {
        const response = await call('POST', '/users', as.OWNER, newUserBody({ email }));
        expect(response.statusCode).toBe(409);
        expect(response.json()).toEqual({ message: MESSAGES.userEmailUsed, fields: { email: MESSAGES.userEmailUsed } });
      }
    });

    it.each([
      ['email', { email: '' }, FIELD_MESSAGES.emailRequired],
      ['email', { email: 'not-an-email' }, FIELD_MESSAGES.emailInvalid],
      ['email', { email: `${'a'.repeat(95)}@x.com` }, FIELD_MESSAGES.emailTooLong],
      ['firstName', { firstName: '' }, FIELD_MESSAGES.nameRequired],
      ['firstName', { firstName: 'x'.repeat(100) }, FIELD_MESSAGES.nameTooLong],
      ['lastName', { lastName: '  ' }, FIELD_MESSAGES.nameRequired],
      ['lastName', { lastName: 'y'.repeat(100) }, FIELD_MESSAGES.nameTooLong],
      ['phone', { phone: '' }, FIELD_MESSAGES.phoneRequired],
      ['phone', { phone: '555-1234' }, FIELD_MESSAGES.phoneDigits],
      ['phone', { phone: '123456789012345' }, FIELD_MESSAGES.phoneTooLong(14)],
      ['role', { role: 'Pilot' }, USER_MESSAGES.roleInvalid],
      ['organizationId', { organizationId: 999_999 }, USER_MESSAGES.otherOrganization],
    ])('answers a bad %s with its message', async (field, change, message) => {
      const response = await call('POST', '/users', as.OWNER, newUserBody(change));
      expect(response.statusCode).toBe(400);
      expect(response.json().fields[field]).toBe(message);
    });

    it('accepts a 99-character name and a 14-digit phone', async () => {
      const response = await call('POST', '/users', as.OWNER, newUserBody({ firstName: 'n'.repeat(99), phone: '12345678901234' }));
      expect(response.statusCode).toBe(201);
    });

    it('lets an owner add only Users', async () => {
      for (const role of ['Editor', 'Owner', 'Admin']) expect((await call('POST', '/users', as.OWNER, newUserBody({ role }))).statusCode).toBe(403);
    });

    it('edits a user with the settings-form rules', async () => {
      const id = await freshMember();
      const email = unique('renamed');
      const response = await call('PATCH', `/users/${id}`, as.OWNER, {
        email,
        firstName: 'Renamed',
        lastName: 'Person',
        phone: '5559876',
        organizationId: demoId,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id, email, firstName: 'Renamed', lastName: 'Person', phone: '5559876' });
      const bad = await call('PATCH', `/users/${id}`, as.OWNER, { email, firstName: '', lastName: 'Person', phone: '55a' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().fields).toEqual({ firstName: FIELD_MESSAGES.nameRequired, phone: FIELD_MESSAGES.phoneDigits });
      const used = await call('PATCH', `/users/${id}`, as.OWNER, { email: 'OWNER@demo.cutdesk.test', firstName: 'R', lastName: 'P', phone: '5559876' });
      expect(used.statusCode).toBe(409);
      expect(used.json().fields.email).toBe(MESSAGES.userEmailUsed);
      const moved = await call('PATCH', `/users/${id}`, as.OWNER, { email, firstName: 'R', lastName: 'P', phone: '5559876', organizationId: northwindId });
      expect(moved.statusCode).toBe(400);
      expect(moved.json().fields.organizationId).toBe(USER_MESSAGES.otherOrganization);
    });

    // Issue 9 changed this: disabling ends the sessions for good; after enabling, the user signs in again.
    it('disables and enables a user, whose session stops at once and does not come back', async () => {
      const body = newUserBody();
      await call('POST', '/users', as.OWNER, body);
      const session = { authorization: `Bearer ${(await acceptInvite(body.email)).json().token}` };
      const id = (await call('GET', '/me', session)).json().id;
      const off = await call('PATCH', `/users/${id}`, as.OWNER, { isEnabled: false });
      expect(off.statusCode).toBe(200);
      expect(off.json().isEnabled).toBe(0);
      expect((await call('GET', '/me', session)).statusCode).toBe(401);
      const on = await call('PATCH', `/users/${id}`, as.OWNER, { isEnabled: 1 });
      expect(on.json().isEnabled).toBe(1);
      expect((await call('GET', '/me', session)).statusCode).toBe(401);
      expect((await call('GET', '/me', await signIn(server.app, body.email, 'invited-pass-1'))).statusCode).toBe(200);
      const bad = await call('PATCH', `/users/${id}`, as.OWNER, { isEnabled: 'yes' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().fields.isEnabled).toBe(USER_MESSAGES.enabledInvalid);
    });

    it('lets the owner edit but not disable, delete or re-invite themselves', async () => {
      const ownerId = (await call('GET', '/me', as.OWNER)).json().id;
      for (const [method, path, body] of [
        ['PATCH', `/users/${ownerId}`, { isEnabled: false }],
        ['DELETE', `/users/${ownerId}`, undefined],
        ['PATCH', `/users/${ownerId}/invite-link`, undefined],
      ] as const) {
        const response = await call(method, path, as.OWNER, body);
        expect(response.statusCode).toBe(403);
        expect(response.json().message).toBe(USER_MESSAGES.self);
      }
      const edit = await call('PATCH', `/users/${ownerId}`, as.OWNER, { email: EMAILS.OWNER, firstName: 'Olivia', lastName: 'Owner', phone: '5550100' });
      expect(edit.statusCode).toBe(200);
    });

    it('deletes a user softly: gone from the list and from sign-in, e-mail free again', async () => {
      const body = newUserBody();
      const { id } = (await call('POST', '/users', as.OWNER, body)).json();
      await acceptInvite(body.email);
      const response = await call('DELETE', `/users/${id}`, as.OWNER);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      const users = (await call('GET', `/organizations/${demoId}/users`, as.OWNER)).json() as { id: number }[];
      expect(users.map((u) => u.id)).not.toContain(id);
      expect((await call('POST', '/login', {}, { email: body.email, password: 'invited-pass-1' })).statusCode).toBe(401);
      expect((await call('DELETE', `/users/${id}`, as.OWNER)).statusCode).toBe(404);
      expect((await call('POST', '/users', as.OWNER, { ...body, email: body.email.toUpperCase() })).statusCode).toBe(201);
    });

    it('resends an invitation: the new link works, the old one no longer does', async () => {
      const body = newUserBody();
      const { id } = (await call('POST', '/users', as.OWNER, body)).json();
      const first = await changePasswordLink(server.dataDir, body.email);
      expect((await call('PATCH', `/users/${id}/invite-link`, as.OWNER)).statusCode).toBe(204);
      const second = await changePasswordLink(server.dataDir, body.email);
      expect(second.searchParams.get('code')).not.toBe(first.searchParams.get('code'));
      const old = await call(
        'PUT',
        '/password-recover-complete',
        {},
        { email: body.email, recoveryCode: first.searchParams.get('code'), newPassword: 'whatever-1' },
      );
      expect(old.statusCode).toBe(400);
      expect((await acceptInvite(body.email)).statusCode).toBe(200);
      const code = await server.db
        .selectFrom('accessCodes')
        .select(['expiresAt', 'createdAt'])
        .where('userId', '=', id)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(Math.round((code.expiresAt.getTime() - code.createdAt.getTime()) / 86_400_000)).toBe(INVITE_CODE_LIFETIME_DAYS);

      await call('PATCH', `/users/${id}`, as.OWNER, { isEnabled: false });
      const disabled = await call('PATCH', `/users/${id}/invite-link`, as.OWNER);
      expect(disabled.statusCode).toBe(409);
      expect(disabled.json().message).toBe(USER_MESSAGES.inviteDisabled);
      // Nor are a disabled user's details edited (A§2: edit only when enabled), whoever asks.
      const edit = await call('PATCH', `/users/${id}`, as.OWNER, { firstName: 'Renamed' });
      expect(edit.statusCode).toBe(409);
      expect(edit.json().message).toBe(USER_MESSAGES.editDisabled);
    });

    it('answers 404 for a user that does not exist or a bad id', async () => {
      expect((await call('PATCH', '/users/999999', as.OWNER, { isEnabled: true })).statusCode).toBe(404);
      expect((await call('DELETE', '/users/abc', as.OWNER)).statusCode).toBe(404);
    });

    it('reads the credits as data.credits', async () => {
      const response = await call('GET', `/organizations/${demoId}/credits`, as.USER);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        data: {
          credits: {
            id: demoId,
            startDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
            endDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
            renewDate: expect.any(String),
            renewable: true,
            interval: 1,
            creditsPerInterval: 10,
            activeCredits: expect.any(Number),
            usedCredits: expect.any(Number),
            storage: 2,
            status: 'ACTIVE',
          },
        },
      });
    });
  });

  describe('customers list (A§2, A§7)', () => {
    beforeAll(async () => {
      // Names whose case would sort differently byte-wise.
      for (const name of ['aardvark films', 'Zebra Works', 'mango Media']) await freshOrganization(`${name} ${Date.now().toString(36)}`);
    });

    const list = async (query: string) => {
      const response = await call('GET', `/organizations?${query}`, as.ADMIN);
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as {
        id: number;
        name: string;
        endDate: string | null;
        owner: { firstName: string; lastName: string; email: string; phone: string | null } | null;
        createdAt: string;
        statusId: number;
      }[];
    };

    it('returns rows with the owner, credits and onboarding fields', async () => {
      const rows = await list('start=0&limit=100');
      const demo = rows.find((r) => r.id === demoId);
      expect(demo).toMatchObject({
        name: 'Demo Studio',
        owner: { firstName: 'Olivia', lastName: 'Owner', email: EMAILS.OWNER, phone: '5550100' },
        statusId: 2,
        subscriptionStatus: 'active',
        kitOrdered: true,
        kitType: 'Studio kit',
        kitOrderedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        activeCredits: expect.any(Number),
        endDate: expect.any(String),
      });
      expect(rows.find((r) => r.id === blueFernId)).toMatchObject({ subscriptionStatus: 'inactive', kitOrdered: false, endDate: null });
      // Newest first by default.
      const created = rows.map((r) => r.createdAt);
      expect(created).toEqual([...created].sort().reverse());
    });

    // As people sort (issue 36 item 8, src/domain/collation.ts): case and accents together, numbers by value, phones by their digits.
    it.each([
      ['organization', (r: { name: string }) => r.name, compareText],
      ['name', (r: { owner: { firstName: string; lastName: string } | null }) => `${r.owner?.firstName} ${r.owner?.lastName}`, compareText],
      ['email', (r: { owner: { email: string } | null }) => r.owner?.email ?? '', compareText],
      ['phone', (r: { owner: { phone: string | null } | null }) => r.owner?.phone ?? '', comparePhones],
    ] as const)('sorts by %s, case-insensitively, both ways', async (sort, key, compare) => {
      const asc = (await list(`sort=${sort}&order=asc`)).map((r) => key(r as never));
      expect(asc).toEqual([...asc].sort(compare));
      const desc = (await list(`sort=${sort}&order=desc`)).map((r) => key(r as never));
      expect(desc).toEqual([...desc].sort(compare).reverse());
    });

    it('sorts by expiry with organizations without credits last', async () => {
      const rows = await list('sort=expiry&order=asc');
      const dates = rows.map((r) => r.endDate);
      const firstNull = dates.indexOf(null);
      expect(firstNull).toBeGreaterThan(0);
      expect(dates.slice(firstNull).every((d) => d === null)).toBe(true);
      const set = dates.slice(0, firstNull) as string[];
      expect(set).toEqual([...set].sort());
    });

    it('pages without overlap', async () => {
      const all = (await list('sort=organization&start=0&limit=100')).map((r) => r.id);
      const first = (await list('sort=organization&start=0&limit=3')).map((r) => r.id);
      const second = (await list('sort=organization&start=3&limit=3')).map((r) => r.id);
      expect([...first, ...second]).toEqual(all.slice(0, 6));
    });

    it('filters by onboarding status', async () => {
      const inProgress = await list('statusId=1');
      expect(inProgress.every((r) => r.statusId === 1)).toBe(true);
      expect(inProgress.map((r) => r.id)).toEqual(expect.arrayContaining([northwindId, blueFernId]));
      const completed = await list('statusId=2');
      expect(completed.map((r) => r.id)).toContain(demoId);
      expect(completed.every((r) => r.statusId === 2)).toBe(true);
    });

    it('searches organization, owner name and e-mail, ignoring case and accents, paged (issue 36)', async () => {
      const tag = Date.now().toString(36);
      const cafe = await freshOrganization(`Café Ünïcødé ${tag}`);
      const plain = await freshOrganization(`cafe unicode ${tag} two`);
      const ids = async (query: string) => (await list(`sort=organization&limit=100&q=${encodeURIComponent(query)}`)).map((r) => r.id);
      expect(new Set(await ids(`CAFÉ UNICODE ${tag}`))).toEqual(new Set([cafe, plain]));
      expect(new Set(await ids(`cafe unïcode ${tag}`))).toEqual(new Set([cafe, plain]));
      expect(await ids(`${tag} two`)).toEqual([plain]);
      // The owner's name and e-mail (the columns the list shows) match too; blank lists all.
      expect(await ids('olivia OWNER')).toContain(demoId);
      expect(await ids('OWNER@DEMO.cutdesk')).toEqual([demoId]);
      expect((await ids('   ')).length).toBe((await list('limit=100')).length);
      expect(await ids(`nothing like this ${tag}`)).toEqual([]);
      // Paging stays right inside the matches.
      const all = await ids(tag);
      const pages = [...(await list(`sort=organization&start=0&limit=1&q=${tag}`)), ...(await list(`sort=organization&start=1&limit=1&q=${tag}`))].map(
        (r) => r.id,
      );
      expect(pages).toEqual(all);
      expect(await list(`sort=organization&start=2&limit=1&q=${tag}`)).toEqual([]);
    });

    it('takes LIKE wildcards in the search literally (issue 36)', async () => {
      const tag = Date.now().toString(36);
      const percent = await freshOrganization(`100% Pure_${tag}`);
      const other = await freshOrganization(`1000 PureX${tag}`);
      const ids = async (query: string) => (await list(`limit=100&q=${encodeURIComponent(query)}`)).map((r) => r.id);
      expect(await ids(`100% pure_${tag}`)).toEqual([percent]);
      expect(await ids(`pure_${tag}`)).toEqual([percent]);
      const named = async (query: string) => (await list(`limit=100&q=${encodeURIComponent(query)}`)).map((r) => r.name);
      expect(await named('%')).toContain(`100% Pure_${tag}`);
      expect((await named('%')).every((name) => name.includes('%'))).toBe(true);
      expect((await named('_')).every((name) => name.includes('_'))).toBe(true);
      expect(await ids(`\\${tag}`)).toEqual([]);
      expect(await ids(`purex${tag}`)).toEqual([other]);
      expect((await call('GET', `/organizations?q=${'x'.repeat(201)}`, as.ADMIN)).statusCode).toBe(400);
    });

    it.each(['sort=size', 'order=up', 'limit=101', 'statusId=3'])('refuses the query %s', async (query) => {
      expect((await call('GET', `/organizations?${query}`, as.ADMIN)).statusCode).toBe(400);
    });

    it('deletes an organization with its users', async () => {
      const id = await freshOrganization();
      const owner = await server.db.selectFrom('users').select(['id', 'email']).where('organizationId', '=', id).executeTakeFirstOrThrow();
      expect((await call('DELETE', `/organizations/${id}`, as.SUPERADMIN)).statusCode).toBe(204);
      expect((await list('limit=100')).map((r) => r.id)).not.toContain(id);
      expect((await call('GET', `/organizations/${id}`, as.ADMIN)).statusCode).toBe(404);
      expect((await call('GET', `/organizations/${id}/admin/login`, as.ADMIN)).statusCode).toBe(404);
      expect((await call('DELETE', `/organizations/${id}`, as.ADMIN)).statusCode).toBe(404);
      const row = await server.db.selectFrom('users').select('deletedAt').where('id', '=', owner.id).executeTakeFirstOrThrow();
      expect(row.deletedAt).not.toBeNull();
    });
  });

  describe('organization detail and fields (A§3, A§7)', () => {
    it('gives staff the organization fields and report, customers only their own', async () => {
      const projects = await server.db.selectFrom('projects').select('status').where('organizationId', '=', demoId).where('deletedAt', 'is', null).execute();
      const users = await server.db.selectFrom('users').select('id').where('organizationId', '=', demoId).where('deletedAt', 'is', null).execute();
      const response = await call('GET', `/organizations/${demoId}`, as.EDITOR);
      expect(response.json()).toMatchObject({
        id: demoId,
        name: 'Demo Studio',
        credits: { status: 'ACTIVE' },
        owner: { email: EMAILS.OWNER },
        statusId: 2,
        assetsLink: 'https://drive.example.com/demo-studio',
        trackingCode: '1Z999AA10123456784',
        subscriptionStatus: 'active',
        isCancelled: false,
        renewableAt: expect.any(String),
        createdAt: expect.any(String),
        activeProjects: projects.filter((p) => ['WAITING_FOR_EDITOR', 'IN_EDITING', 'IN_REVIEW', 'PAUSED'].includes(p.status)).length,
        completedProjects: projects.filter((p) => ['APPROVED', 'ARCHIVED'].includes(p.status)).length,
        assetsCount: expect.any(Number),
        usersCount: users.length,
        activeCredits: expect.any(Number),
        creditsPerInterval: 10,
        endDate: expect.any(String),
        renewDate: expect.any(String),
        storage: 2,
        usedSpace: expect.any(Number),
        projectReviewPeriod: expect.any(Number),
      });
      for (const actor of ['OWNER', 'IMPERSONATION'] as const) {
        const own = (await call('GET', `/organizations/${demoId}`, as[actor])).json();
        expect(Object.keys(own).sort()).toEqual(['credits', 'id', 'name', 'status', 'storage', 'usedSpace']);
      }
    });

    it('completes an onboarding once', async () => {
      const id = await freshOrganization();
      const done = await call('PATCH', `/organizations/${id}`, as.ADMIN, { state: 'APPROVED' });
      expect(done.statusCode).toBe(200);
      expect(done.json()).toMatchObject({ id, statusId: 2, state: 'APPROVED' });
      const again = await call('PATCH', `/organizations/${id}`, as.ADMIN, { state: 'APPROVED' });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(ORGANIZATION_MESSAGES.alreadyComplete);
      const bad = await call('PATCH', `/organizations/${id}`, as.ADMIN, { state: 'PENDING' });
      expect(bad.json().fields.state).toBe(ORGANIZATION_MESSAGES.stateInvalid);
    });

    it('saves the assets link, cleared by null or empty text', async () => {
      const id = await freshOrganization();
      expect((await call('PATCH', `/organizations/${id}`, as.ADMIN, { assetsLink: 'https://drive.example.com/a' })).json().assetsLink).toBe(
        'https://drive.example.com/a',
      );
      for (const value of ['', null]) {
        await call('PATCH', `/organizations/${id}`, as.ADMIN, { assetsLink: 'https://drive.example.com/a' });
        expect((await call('PATCH', `/organizations/${id}`, as.ADMIN, { assetsLink: value })).json().assetsLink).toBeNull();
      }
      for (const value of ['ftp://x.example.com', 'not a link']) {
        const response = await call('PATCH', `/organizations/${id}`, as.ADMIN, { assetsLink: value });
        expect(response.statusCode).toBe(400);
        expect(response.json().fields.assetsLink).toBe(FIELD_MESSAGES.linkInvalid);
      }
      // Issue 12: over the asset-link limit (255, A§5), the message names the limit.
      const tooLong = await call('PATCH', `/organizations/${id}`, as.ADMIN, { assetsLink: `https://x.example.com/${'a'.repeat(234)}` });
      expect(tooLong.statusCode).toBe(400);
      expect(tooLong.json().fields.assetsLink).toBe(FIELD_MESSAGES.linkTooLong('asset'));
    });

    it('sets the tracking code only with an active subscription', async () => {
      const inactive = await call('PATCH', `/organizations/${blueFernId}`, as.ADMIN, { trackingCode: 'TRACK-1' });
      expect(inactive.statusCode).toBe(409);
      expect(inactive.json().fields.trackingCode).toBe(ORGANIZATION_MESSAGES.trackingNeedsSubscription);
      const cancelled = await freshOrganization(undefined, { renewableAt: new Date(), isCancelled: true });
      expect((await call('PATCH', `/organizations/${cancelled}`, as.ADMIN, { trackingCode: 'TRACK-1' })).statusCode).toBe(409);
      const tooLong = await call('PATCH', `/organizations/${northwindId}`, as.ADMIN, { trackingCode: 'x'.repeat(101) });
      expect(tooLong.statusCode).toBe(400);
      expect(tooLong.json().fields.trackingCode).toBe(FIELD_MESSAGES.trackingTooLong);
      const saved = await call('PATCH', `/organizations/${northwindId}`, as.ADMIN, { trackingCode: 'x'.repeat(100) });
      expect(saved.json().trackingCode).toBe('x'.repeat(100));
      expect((await call('PATCH', `/organizations/${northwindId}`, as.ADMIN, { trackingCode: '' })).json().trackingCode).toBeNull();
    });

    it.each([
      [12, 12],
      ['9', 9],
      ['', 0],
      [0, 0],
    ])('saves the review period %j as %d', async (value, saved) => {
      const response = await call('PATCH', `/organizations/${northwindId}`, as.ADMIN, { projectReviewPeriod: value });
      expect(response.statusCode).toBe(200);
      expect(response.json().projectReviewPeriod).toBe(saved);
    });

    it.each([
      [-1, ORGANIZATION_MESSAGES.reviewPeriodDigits],
      ['-1', ORGANIZATION_MESSAGES.reviewPeriodDigits],
      ['3 days', ORGANIZATION_MESSAGES.reviewPeriodDigits],
      [2.5, ORGANIZATION_MESSAGES.reviewPeriodDigits],
      [366, ORGANIZATION_MESSAGES.reviewPeriodTooLong],
    ])('refuses the review period %j', async (value, message) => {
      const response = await call('PATCH', `/organizations/${northwindId}`, as.ADMIN, { projectReviewPeriod: value });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields.projectReviewPeriod).toBe(message);
    });

    it.each([{}, { assetsLink: null, projectReviewPeriod: 3 }])('refuses %j: exactly one field', async (body) => {
      const response = await call('PATCH', `/organizations/${northwindId}`, as.ADMIN, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(ORGANIZATION_MESSAGES.oneField);
    });

    it('answers 404 for an organization that does not exist', async () => {
      expect((await call('PATCH', '/organizations/999999', as.ADMIN, { projectReviewPeriod: 1 })).statusCode).toBe(404);
      expect((await call('GET', '/organizations/999999/credits', as.ADMIN)).statusCode).toBe(404);
      expect((await call('GET', '/organizations/999999/users', as.ADMIN)).statusCode).toBe(404);
    });
  });

  describe('credits update (A§7)', () => {
    const valid = { startDate: '2026-01-15', endDate: '2027-01-14', renewable: true, credits: 24, interval: 1, creditsPerInterval: 2, storage: 1.5 };

    it('saves the credits and storage and computes the renew date', async () => {
      const id = await freshOrganization();
      const response = await call('PUT', `/organizations/${id}/credits`, as.ADMIN, valid);
      expect(response.statusCode).toBe(200);
      const { credits } = response.json().data;
      expect(credits).toMatchObject({
        id,
        startDate: '2026-01-15',
        endDate: '2027-01-14',
        renewable: true,
        activeCredits: 24,
        interval: 1,
        creditsPerInterval: 2,
        storage: 1.5,
        usedCredits: 0,
      });
      expect(credits.renewDate === null || /^\d{4}-\d{2}-15$/.test(credits.renewDate)).toBe(true);
      const organization = (await call('GET', `/organizations/${id}`, as.ADMIN)).json();
      expect(organization).toMatchObject({ storage: 1.5, activeCredits: 24, creditsPerInterval: 2, endDate: '2027-01-14' });
      const notRenewing = (await call('PUT', `/organizations/${id}/credits`, as.ADMIN, { ...valid, renewable: false })).json().data.credits;
      expect(notRenewing.renewDate).toBeNull();
      const texts = await call('PUT', `/organizations/${id}/credits`, as.ADMIN, { ...valid, credits: '30', storage: '3' });
      expect(texts.json().data.credits).toMatchObject({ activeCredits: 30, storage: 3 });
    });

    it.each([
      ['startDate', { startDate: '2026-02-30' }, ORGANIZATION_MESSAGES.dateInvalid],
      ['startDate', { startDate: undefined }, ORGANIZATION_MESSAGES.dateInvalid],
      ['endDate', { endDate: '14/01/2027' }, ORGANIZATION_MESSAGES.dateInvalid],
      ['endDate', { endDate: '2025-12-31' }, ORGANIZATION_MESSAGES.endBeforeStart],
      ['credits', { credits: -1 }, ORGANIZATION_MESSAGES.wholeNumber(100_000)],
      ['credits', { credits: 1.5 }, ORGANIZATION_MESSAGES.wholeNumber(100_000)],
      ['interval', { interval: -3 }, ORGANIZATION_MESSAGES.wholeNumber(120)],
      ['creditsPerInterval', { creditsPerInterval: 'many' }, ORGANIZATION_MESSAGES.wholeNumber(100_000)],
      ['storage', { storage: -0.5 }, ORGANIZATION_MESSAGES.storageInvalid],
      ['storage', { storage: 5000 }, ORGANIZATION_MESSAGES.storageInvalid],
      ['renewable', { renewable: 'yes' }, ORGANIZATION_MESSAGES.renewableInvalid],
    ])('answers a bad %s with its message', async (field, change, message) => {
      const response = await call('PUT', `/organizations/${northwindId}/credits`, as.ADMIN, { ...valid, ...change });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields[field]).toBe(message);
    });

    it('refuses a total below the credits already used', async () => {
      const id = await freshOrganization();
      await server.db.updateTable('credits').set({ activeCredits: 10, usedCredits: 6 }).where('organizationId', '=', id).execute();
      const response = await call('PUT', `/organizations/${id}/credits`, as.ADMIN, { ...valid, credits: 5 });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields.credits).toBe(ORGANIZATION_MESSAGES.creditsBelowUsed(6));
      expect((await call('PUT', `/organizations/${id}/credits`, as.ADMIN, { ...valid, credits: 6 })).statusCode).toBe(200);
    });
  });

  describe('impersonation (A§2)', () => {
    it('signs the admin in as the owner, records it and keeps the admin named', async () => {
      const before = await server.db.selectFrom('impersonations').select('id').where('organizationId', '=', northwindId).execute();
      const response = await call('GET', `/organizations/${northwindId}/admin/login`, as.SUPERADMIN);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ token: expect.any(String), organizationId: northwindId });
      const session = { authorization: `Bearer ${response.json().token}` };
      const me = (await call('GET', '/me', session)).json();
      const superadminId = (await call('GET', '/me', as.SUPERADMIN)).json().id;
      expect(me).toMatchObject({ email: EMAILS.OTHER_OWNER, role: { name: 'OWNER' }, organizationId: northwindId, impersonatedBy: superadminId });
      const after = await server.db.selectFrom('impersonations').selectAll().where('organizationId', '=', northwindId).execute();
      expect(after.length).toBe(before.length + 1);
      expect(after.at(-1)).toMatchObject({ adminId: superadminId, organizationId: northwindId, createdAt: expect.any(Date) });
      // The impersonation acts as the owner on customer routes.
      expect((await call('GET', `/organizations/${northwindId}/users`, session)).statusCode).toBe(200);
    });

    it('stops working when the admin loses access', async () => {
      const id = await freshEditor();
      await server.db.updateTable('users').set({ role: 'ADMIN', passwordHash: null }).where('id', '=', id).execute();
      // A throwaway admin, so the shared demo admin stays enabled.
      const token = await server.app.ctx.tokens.sign({ userId: id, impersonatorId: null, sessionVersion: 0 });
      const login = await call('GET', `/organizations/${demoId}/admin/login`, { authorization: `Bearer ${token}` });
      const session = { authorization: `Bearer ${login.json().token}` };
      expect((await call('GET', '/me', session)).statusCode).toBe(200);
      await server.db.updateTable('users').set({ isEnabled: false }).where('id', '=', id).execute();
      expect((await call('GET', '/me', session)).statusCode).toBe(401);
    });

    it('refuses an organization without an active owner', async () => {
      const id = await freshOrganization();
      await server.db.updateTable('users').set({ isEnabled: false }).where('organizationId', '=', id).execute();
      const response = await call('GET', `/organizations/${id}/admin/login`, as.ADMIN);
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(ORGANIZATION_MESSAGES.noOwner);
    });

    it('keeps the demo admin id in the token of the shared impersonation', async () => {
      expect((await call('GET', '/me', as.IMPERSONATION)).json().impersonatedBy).toBe(adminId);
    });
  });

  describe('editors and staff users (A§2, A§7)', () => {
    it('adds an editor with a picture and invites them', async () => {
      const body = newEditorBody({ profilePictureUrl: TINY_JPEG });
      const response = await call('POST', '/users', as.ADMIN, body);
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({
        email: body.email,
        role: { name: 'EDITOR' },
        organizationId: null,
        profilePictureUrl: TINY_JPEG,
        phone: body.phone,
        hasPassword: false,
      });
      const mail = (await readOutbox(server.dataDir)).filter((m) => m.to.includes(body.email)).at(-1);
      expect(mail?.subject).toBe('You are invited to the Cutdesk team');
      const done = await acceptInvite(body.email);
      expect(done.statusCode).toBe(200);
      const me = await call('GET', '/me', { authorization: `Bearer ${done.json().token}` });
      expect(me.json().role.name).toBe('EDITOR');
    });

    it('accepts an editor without phone or picture (no phone rule)', async () => {
      const response = await call('POST', '/users', as.ADMIN, { email: unique('bare'), firstName: 'Bare', lastName: 'Editor', role: 'Editor' });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ phone: null, profilePictureUrl: null });
    });

    it.each([
      ['email', { email: 'nope' }, FIELD_MESSAGES.emailInvalid],
      ['firstName', { firstName: '' }, FIELD_MESSAGES.nameRequired],
      ['lastName', { lastName: '' }, FIELD_MESSAGES.nameRequired],
      ['phone', { phone: '1'.repeat(31) }, USER_MESSAGES.phoneTooLong],
      ['profilePictureUrl', { profilePictureUrl: 'data:image/svg+xml;base64,AAAA' }, USER_MESSAGES.pictureInvalid],
      ['profilePictureUrl', { profilePictureUrl: `data:image/jpeg;base64,${'A'.repeat(140_000)}` }, USER_MESSAGES.pictureInvalid],
      ['profilePictureUrl', { profilePictureUrl: 'http://insecure.example.com/p.jpg' }, USER_MESSAGES.pictureInvalid],
    ])('answers a bad editor %s with its message', async (field, change, message) => {
      const response = await call('POST', '/users', as.ADMIN, newEditorBody(change));
      expect(response.statusCode).toBe(400);
      expect(response.json().fields[field]).toBe(message);
    });

    it('refuses a used e-mail for an editor', async () => {
      const response = await call('POST', '/users', as.ADMIN, newEditorBody({ email: 'EDITOR@demo.cutdesk.test' }));
      expect(response.statusCode).toBe(409);
      expect(response.json().fields.email).toBe(MESSAGES.userEmailUsed);
    });

    it('lets only the superadmin add admins, and nobody a superadmin, saying why (issue 36)', async () => {
      const refused = async (actor: Actor, role: string, status: number, message: string) => {
        const email = unique('refused');
        const response = await call('POST', '/users', as[actor], newEditorBody({ role, email }));
        expect(response.statusCode, `${actor} adding ${role}`).toBe(status);
        expect(response.json().message).toBe(message);
        expect(await server.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
      };
      await refused('ADMIN', 'Admin', 403, USER_MESSAGES.adminBySuperadminOnly);
      await refused('ADMIN', 'Superadmin', 403, USER_MESSAGES.noNewSuperadmin);
      await refused('SUPERADMIN', 'SUPERADMIN', 403, USER_MESSAGES.noNewSuperadmin);
      await refused('SUPERADMIN', 'Owner', 403, USER_MESSAGES.createRole);
      await refused('EDITOR', 'Editor', 403, USER_MESSAGES.createRole);
      await refused('OWNER', 'Editor', 403, USER_MESSAGES.createRole);
      await refused('SUPERADMIN', 'Pilot', 400, USER_MESSAGES.roleInvalid);
      expect((await call('POST', '/users', as.ADMIN, newEditorBody({ role: 'Editor' }))).json().role.name).toBe('EDITOR');
      expect((await call('POST', '/users', as.SUPERADMIN, newEditorBody({ role: 'Editor' }))).json().role.name).toBe('EDITOR');
      const created = await call('POST', '/users', as.SUPERADMIN, newEditorBody({ role: 'Admin' }));
      expect(created.statusCode).toBe(201);
      expect(created.json().role.name).toBe('ADMIN');
      expect((await call('PATCH', `/users/${created.json().id}`, as.ADMIN, { isEnabled: false })).statusCode).toBe(403);
      expect((await call('PATCH', `/users/${created.json().id}`, as.SUPERADMIN, { isEnabled: false })).statusCode).toBe(200);
    });

    it('lists editors newest first, 50 per page, without deleted ones', async () => {
      const newest = (await call('POST', '/users', as.ADMIN, newEditorBody())).json();
      const gone = await freshEditor();
      await call('DELETE', `/users/${gone}/editor`, as.ADMIN);
      const response = await call('GET', '/users?role=editor&start=0&limit=50', as.ADMIN);
      const editors = response.json() as { id: number; role: { name: string } }[];
      expect(editors.length).toBeLessThanOrEqual(50);
      expect(editors.every((e) => e.role.name === 'EDITOR')).toBe(true);
      expect(editors.map((e) => e.id)).not.toContain(gone);
      expect(editors[0]!.id).toBe(newest.id);
      expect((await call('GET', '/users?role=editor&limit=1&start=1', as.ADMIN)).json()[0].id).toBe(editors[1]!.id);
      const staff = (await call('GET', '/users?role=staff&limit=100', as.ADMIN)).json() as { role: { name: string } }[];
      expect(new Set(staff.map((u) => u.role.name))).toEqual(new Set(['SUPERADMIN', 'ADMIN', 'EDITOR']));
      expect((await call('GET', '/users?role=owner', as.ADMIN)).statusCode).toBe(400);
      expect((await call('GET', '/users?role=editor&limit=501', as.ADMIN)).statusCode).toBe(400);
      expect((await call('GET', '/users?role=editor', as.ADMIN)).json().length).toBeLessThanOrEqual(50);
    });

    it('edits an editor and disables them, ending their session', async () => {
      const body = newEditorBody();
      const { id } = (await call('POST', '/users', as.ADMIN, body)).json();
      const session = { authorization: `Bearer ${(await acceptInvite(body.email)).json().token}` };
      const edited = await call('PATCH', `/users/${id}`, as.ADMIN, {
        email: body.email,
        firstName: 'Finished',
        lastName: 'Profile',
        phone: '',
        profilePictureUrl: TINY_JPEG,
      });
      expect(edited.statusCode).toBe(200);
      expect(edited.json()).toMatchObject({ firstName: 'Finished', lastName: 'Profile', phone: null, profilePictureUrl: TINY_JPEG });
      const used = await call('PATCH', `/users/${id}`, as.ADMIN, { email: EMAILS.USER, firstName: 'F', lastName: 'P' });
      expect(used.statusCode).toBe(409);
      expect((await call('PATCH', `/users/${id}`, as.ADMIN, { isEnabled: false })).json().isEnabled).toBe(0);
      expect((await call('GET', '/me', session)).statusCode).toBe(401);
    });

    it('refuses to delete an editor with assigned projects', async () => {
      const id = await freshEditor();
      const project = await server.db
        .insertInto('projects')
        .values({ organizationId: demoId, userId: (await call('GET', '/me', as.OWNER)).json().id, editorId: id, name: 'Assigned', status: 'IN_EDITING' })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const path of [`/users/${id}/editor`, `/users/${id}`]) {
        const response = await call('DELETE', path, as.ADMIN);
        expect(response.statusCode).toBe(403);
        expect(response.json().message).toBe(USER_MESSAGES.editorHasProjects);
      }
      await server.db.updateTable('projects').set({ status: 'HIDDEN' }).where('id', '=', project.id).execute();
      expect((await call('DELETE', `/users/${id}/editor`, as.ADMIN)).statusCode).toBe(204);
    });

    it('deletes only editors through users/{id}/editor', async () => {
      expect((await call('DELETE', `/users/${await freshMember()}/editor`, as.ADMIN)).statusCode).toBe(404);
    });

    it('saves the editor drive link with the link rule', async () => {
      const id = await freshEditor();
      const saved = await call('PATCH', `/users/${id}/asset-path`, as.ADMIN, { path: 'https://drive.example.com/ed' });
      expect(saved.statusCode).toBe(200);
      expect(saved.json().assetsPath).toBe('https://drive.example.com/ed');
      const bad = await call('PATCH', `/users/${id}/asset-path`, as.ADMIN, { path: 'drive' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().fields.path).toBe(FIELD_MESSAGES.linkInvalid);
      expect((await call('PATCH', `/users/${id}/asset-path`, as.ADMIN, { path: '' })).json().assetsPath).toBeNull();
      expect((await call('PATCH', `/users/${await freshMember()}/asset-path`, as.ADMIN, { path: 'https://x.example.com' })).statusCode).toBe(404);
    });

    it('lets staff edit but not disable themselves', async () => {
      const me = (await call('GET', '/me', as.ADMIN)).json();
      expect((await call('PATCH', `/users/${me.id}`, as.ADMIN, { isEnabled: false })).json().message).toBe(USER_MESSAGES.self);
      expect((await call('PATCH', `/users/${me.id}`, as.ADMIN, { email: me.email, firstName: 'Alex', lastName: 'Admin', phone: '5550100' })).statusCode).toBe(
        200,
      );
    });
  });

  describe('trial users (A§2)', () => {
    it('lists owners of organizations without a subscription, with the trial end and a link', async () => {
      const trial: { organizationId: number; email: string; codeExpiration: string; link: string }[] = [];
      for (let start = 0; ; start += 20) {
        const response = await call('GET', `/users/trial?start=${start}&limit=20`, as.ADMIN);
        expect(response.statusCode).toBe(200);
        const page = response.json() as typeof trial;
        expect(page.length).toBeLessThanOrEqual(20);
        trial.push(...page);
        if (page.length < 20) break;
      }
      expect(new Set(trial.map((t) => t.organizationId)).size).toBe(trial.length);
      const blueFern = trial.find((t) => t.organizationId === blueFernId);
      expect(blueFern).toMatchObject({
        organizationName: 'Blue Fern Bakery',
        email: 'bea@bluefern.demo.cutdesk.test',
        firstName: 'Bea',
        lastName: 'Fern',
        link: trialRegistrationLink(server.config.publicUrl, 'bea@bluefern.demo.cutdesk.test'),
      });
      const created = await server.db.selectFrom('organizations').select('createdAt').where('id', '=', blueFernId).executeTakeFirstOrThrow();
      expect(Date.parse(blueFern!.codeExpiration) - created.createdAt.getTime()).toBe(TRIAL_DAYS * 86_400_000);
      expect(trial.map((t) => t.organizationId)).not.toContain(demoId);
      expect(trial.map((t) => t.organizationId)).not.toContain(northwindId);
      expect((await call('GET', '/users/trial?limit=21', as.ADMIN)).statusCode).toBe(400);
    });

    it('gives each trial user a registration link of their own, with no secret in it', async () => {
      const rows = (await call('GET', '/users/trial?start=0&limit=20', as.ADMIN)).json() as { email: string; link: string }[];
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        const link = new URL(row.link);
        expect(link.pathname).toBe('/login/user');
        expect(link.searchParams.get('email')).toBe(row.email);
        expect(link.searchParams.has('code')).toBe(false);
      }
    });
  });
});
