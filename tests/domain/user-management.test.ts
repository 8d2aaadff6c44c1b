import { describe, expect, it } from 'vitest';
import type { RoleName } from '../../src/domain/roles.ts';
import {
  USER_MESSAGES,
  creatableStaffRoles,
  createRoleRefusal,
  decideUserAction,
  editorPhoneRule,
  isAcceptedPicture,
  mayCreateRole,
  parseRoleName,
  pictureRule,
  trialRegistrationLink,
  type Person,
  type UserAction,
} from '../../src/domain/user-management.ts';

const person = (id: number, role: RoleName, organizationId: number | null = null): Person => ({ id, role, organizationId });
const owner = person(1, 'OWNER', 10);
const member = person(2, 'USER', 10);
const otherMember = person(3, 'USER', 20);
const superadmin = person(4, 'SUPERADMIN');
const admin = person(5, 'ADMIN');
const editor = person(6, 'EDITOR');
const otherAdmin = person(7, 'ADMIN');
const ACTIONS: UserAction[] = ['edit', 'enable', 'delete', 'invite'];

const outcome = (actor: Person, target: Person, action: UserAction) => {
  const decision = decideUserAction(actor, target, action);
  return decision.allowed ? 'allowed' : decision.status;
};

describe('who manages which user (C§6, A§6)', () => {
  it('lets the owner manage the users of their organization', () => {
    for (const action of ACTIONS) expect(outcome(owner, member, action)).toBe('allowed');
  });

  it('hides other organizations and staff from customers (404)', () => {
    for (const action of ACTIONS) {
      expect(outcome(owner, otherMember, action)).toBe(404);
      expect(outcome(owner, editor, action)).toBe(404);
      expect(outcome(member, otherMember, action)).toBe(404);
    }
  });

  it('refuses users and editors (403)', () => {
    for (const action of ACTIONS) {
      expect(outcome(member, owner, action)).toBe(403);
      expect(outcome(member, member, action)).toBe(403);
      expect(outcome(editor, editor, action)).toBe(403);
      expect(outcome(editor, person(8, 'EDITOR'), action)).toBe(403);
    }
  });

  it('lets admins manage editors, the superadmin editors and admins', () => {
    for (const action of ACTIONS) {
      expect(outcome(admin, editor, action)).toBe('allowed');
      expect(outcome(admin, otherAdmin, action)).toBe(403);
      expect(outcome(admin, superadmin, action)).toBe(403);
      expect(outcome(admin, member, action)).toBe(403);
      expect(outcome(superadmin, editor, action)).toBe('allowed');
      expect(outcome(superadmin, admin, action)).toBe('allowed');
      expect(outcome(superadmin, person(9, 'SUPERADMIN'), action)).toBe(403);
    }
  });

  it('lets managers edit but never disable, delete or re-invite themselves', () => {
    for (const actor of [owner, admin, superadmin]) {
      expect(outcome(actor, actor, 'edit')).toBe('allowed');
      for (const action of ['enable', 'delete', 'invite'] as const) {
        expect(decideUserAction(actor, actor, action)).toEqual({ allowed: false, status: 403, message: USER_MESSAGES.self });
      }
    }
  });

  it('says which roles each role may create', () => {
    expect(mayCreateRole('OWNER', 'USER')).toBe(true);
    expect(mayCreateRole('OWNER', 'EDITOR')).toBe(false);
    expect(mayCreateRole('ADMIN', 'EDITOR')).toBe(true);
    expect(mayCreateRole('ADMIN', 'ADMIN')).toBe(false);
    expect(mayCreateRole('SUPERADMIN', 'ADMIN')).toBe(true);
    expect(mayCreateRole('SUPERADMIN', 'OWNER')).toBe(false);
    expect(mayCreateRole('EDITOR', 'EDITOR')).toBe(false);
    expect(mayCreateRole('USER', 'USER')).toBe(false);
  });

  it('says which staff roles each role may give, and why it may not (issue 36)', () => {
    expect(creatableStaffRoles('SUPERADMIN')).toEqual(['EDITOR', 'ADMIN']);
    expect(creatableStaffRoles('ADMIN')).toEqual(['EDITOR']);
    expect(creatableStaffRoles('EDITOR')).toEqual([]);
    expect(creatableStaffRoles('OWNER')).toEqual([]);
    expect(createRoleRefusal('SUPERADMIN', 'ADMIN')).toBeNull();
    expect(createRoleRefusal('ADMIN', 'EDITOR')).toBeNull();
    expect(createRoleRefusal('ADMIN', 'ADMIN')).toBe(USER_MESSAGES.adminBySuperadminOnly);
    expect(createRoleRefusal('ADMIN', 'SUPERADMIN')).toBe(USER_MESSAGES.noNewSuperadmin);
    expect(createRoleRefusal('SUPERADMIN', 'SUPERADMIN')).toBe(USER_MESSAGES.noNewSuperadmin);
    expect(createRoleRefusal('OWNER', 'EDITOR')).toBe(USER_MESSAGES.createRole);
  });

  it('reads role names in any case', () => {
    expect(parseRoleName('Editor')).toBe('EDITOR');
    expect(parseRoleName(' user ')).toBe('USER');
    expect(parseRoleName('Pilot')).toBeNull();
  });
});

describe('editor form rules (A§5)', () => {
  it('accepts gif, jpeg, jpg, png and bmp pictures only', () => {
    for (const name of ['a.gif', 'a.jpeg', 'a.JPG', 'a.png', 'a.bmp']) expect(isAcceptedPicture(name, '')).toBe(true);
    expect(isAcceptedPicture('a.png', 'image/png')).toBe(true);
    expect(isAcceptedPicture('a.webp', 'image/webp')).toBe(false);
    expect(isAcceptedPicture('a.svg', 'image/svg+xml')).toBe(false);
    expect(isAcceptedPicture('a.png', 'text/plain')).toBe(false);
  });

  it('stores a small image data URL or an https address', () => {
    expect(pictureRule('')).toBeUndefined();
    expect(pictureRule('data:image/jpeg;base64,/9j/4AAQ')).toBeUndefined();
    expect(pictureRule('https://cdn.example.com/p.jpg')).toBeUndefined();
    expect(pictureRule('http://cdn.example.com/p.jpg')).toBe(USER_MESSAGES.pictureInvalid);
    expect(pictureRule('data:text/html;base64,AAAA')).toBe(USER_MESSAGES.pictureInvalid);
    expect(pictureRule(`data:image/jpeg;base64,${'A'.repeat(140_000)}`)).toBe(USER_MESSAGES.pictureInvalid);
  });

  it('has no phone rule beyond a length cap', () => {
    expect(editorPhoneRule('')).toBeUndefined();
    expect(editorPhoneRule('+1 (555) 010-2000')).toBeUndefined();
    expect(editorPhoneRule('1'.repeat(31))).toBe(USER_MESSAGES.phoneTooLong);
  });
});

describe('trial registration link (issue 12)', () => {
  it('is specific to the user and carries no secret', () => {
    const a = trialRegistrationLink('https://app.cutdesk.test', 'bea+trial@bluefern.test');
    const b = trialRegistrationLink('https://app.cutdesk.test', 'tom@bluefern.test');
    expect(a).not.toBe(b);
    const url = new URL(a);
    expect(url.pathname).toBe('/login/user');
    expect(url.searchParams.get('email')).toBe('bea+trial@bluefern.test');
    expect(url.searchParams.get('next')).toBe('/pricing');
    expect([...url.searchParams.keys()].sort()).toEqual(['email', 'next']);
  });
});
