import { describe, expect, it } from 'vitest';
import { PROJECT_STATUSES, type ProjectStatus } from '../../src/domain/project-status.ts';
import {
  COMMENT_TEXT_MAX,
  GUEST_NAME_MAX,
  REVIEW_MESSAGES,
  REVIEW_REFUSAL_STATUS,
  canRequestChanges,
  canSeeVersion,
  commentPermissions,
  decideCreateComment,
  decideDelete,
  decideEdit,
  decideRequestChanges,
  decideResolve,
  isCommentingOpen,
  isShareLinkActive,
  validateCommentText,
  visibleVersionsFor,
  type NewComment,
  type ReviewActor,
  type ReviewComment,
  type ReviewProject,
  type ShareLink,
} from '../../src/domain/review-rules.ts';
import type { RoleName } from '../../src/domain/roles.ts';

const NOW = Date.parse('2025-06-01T12:00:00Z');
const ORG = 7;

/** Project 1 of organization 7: three versions uploaded, two sent to review. */
const project = (status: ProjectStatus = 'IN_REVIEW', extra: Partial<ReviewProject> = {}): ReviewProject => ({
  id: 1,
  organizationId: ORG,
  status,
  versions: 3,
  releasedVersions: 2,
  ...extra,
});

const member = (role: RoleName, userId = 100, organizationId: number | null = null): ReviewActor => ({ kind: 'member', role, userId, organizationId });
const SUPERADMIN = member('SUPERADMIN', 1);
const ADMIN = member('ADMIN', 2);
const EDITOR = member('EDITOR', 3);
const OWNER = member('OWNER', 10, ORG);
const USER = member('USER', 11, ORG);
const OTHER_OWNER = member('OWNER', 20, 8);
const ORPHAN_USER = member('USER', 21, null);

const link = (extra: Partial<ShareLink> = {}): ShareLink => ({ projectId: 1, version: 2, expiresAt: null, revokedAt: null, ...extra });
const guest = (extra: Partial<ShareLink> = {}): ReviewActor => ({ kind: 'guest', link: link(extra) });
const GUEST = guest();

/** A thread on version 2 written by USER (id 11). */
const comment = (extra: Partial<ReviewComment> = {}): ReviewComment => ({ version: 2, authorUserId: 11, parentId: null, resolved: false, ...extra });
const draft = (extra: Partial<NewComment> = {}): NewComment => ({ version: 2, text: 'Cut the pause here', frame: 120, ...extra });
const guestDraft = (extra: Partial<NewComment> = {}): NewComment => draft({ guestName: 'Dana from marketing', ...extra });

const refused = (reason: string, message?: string) => (message ? { ok: false, reason, message } : expect.objectContaining({ ok: false, reason }));
const OK = { ok: true };

describe('visibleVersionsFor', () => {
  it('shows staff every uploaded version, also of a deleted project', () => {
    for (const actor of [SUPERADMIN, ADMIN, EDITOR]) {
      for (const status of PROJECT_STATUSES) expect(visibleVersionsFor(actor, project(status), NOW)).toEqual([1, 2, 3]);
    }
  });

  it('shows the organization only the versions sent to review', () => {
    for (const actor of [OWNER, USER]) {
      expect(visibleVersionsFor(actor, project(), NOW)).toEqual([1, 2]);
      expect(visibleVersionsFor(actor, project('IN_EDITING'), NOW)).toEqual([1, 2]);
      expect(visibleVersionsFor(actor, project('OPENED', { versions: 0, releasedVersions: 0 }), NOW)).toEqual([]);
      expect(visibleVersionsFor(actor, project('IN_EDITING', { versions: 1, releasedVersions: 0 }), NOW)).toEqual([]);
    }
  });

  it('never shows more released versions than were uploaded', () => {
    expect(visibleVersionsFor(OWNER, project('IN_REVIEW', { versions: 1, releasedVersions: 4 }), NOW)).toEqual([1]);
  });

  it('shows customers nothing of a deleted or hidden project', () => {
    for (const status of ['DELETED', 'HIDDEN'] as const) {
      expect(visibleVersionsFor(OWNER, project(status), NOW)).toEqual([]);
      expect(visibleVersionsFor(GUEST, project(status), NOW)).toEqual([]);
    }
  });

  it('shows other organizations and customers without one nothing', () => {
    expect(visibleVersionsFor(OTHER_OWNER, project(), NOW)).toEqual([]);
    expect(visibleVersionsFor(ORPHAN_USER, project(), NOW)).toEqual([]);
  });

  it('shows a guest only the link’s version, while the link is active', () => {
    expect(visibleVersionsFor(GUEST, project(), NOW)).toEqual([2]);
    expect(visibleVersionsFor(guest({ version: 1 }), project(), NOW)).toEqual([1]);
    expect(visibleVersionsFor(guest({ version: 3 }), project(), NOW)).toEqual([]); // not sent to review
    expect(visibleVersionsFor(guest({ version: 0 }), project(), NOW)).toEqual([]);
    expect(visibleVersionsFor(guest({ projectId: 2 }), project(), NOW)).toEqual([]);
    expect(visibleVersionsFor(guest({ revokedAt: new Date(NOW - 1000) }), project(), NOW)).toEqual([]);
    expect(visibleVersionsFor(guest({ expiresAt: new Date(NOW) }), project(), NOW)).toEqual([]);
    expect(visibleVersionsFor(guest({ expiresAt: new Date(NOW + 1) }), project(), NOW)).toEqual([2]);
    expect(visibleVersionsFor(guest({ expiresAt: '2025-06-02T00:00:00Z' }), project(), NOW)).toEqual([2]);
  });
});

describe('isShareLinkActive', () => {
  it('works until revoked or expired; an unreadable expiry counts as expired', () => {
    expect(isShareLinkActive(link(), NOW)).toBe(true);
    expect(isShareLinkActive(link({ revokedAt: '2025-01-01T00:00:00Z' }), NOW)).toBe(false);
    expect(isShareLinkActive(link({ expiresAt: '2025-05-31T00:00:00Z' }), NOW)).toBe(false);
    expect(isShareLinkActive(link({ expiresAt: 'soon' }), NOW)).toBe(false);
    expect(isShareLinkActive(link({ expiresAt: new Date(NOW + 60_000) }), new Date(NOW))).toBe(true);
  });
});

describe('canSeeVersion', () => {
  it('answers not-found for a version out of reach, with a readable message', () => {
    expect(canSeeVersion(OWNER, project(), 2, NOW)).toEqual(OK);
    expect(canSeeVersion(OWNER, project(), 3, NOW)).toEqual(refused('not-found', REVIEW_MESSAGES.notFound));
    expect(canSeeVersion(EDITOR, project(), 3, NOW)).toEqual(OK);
    expect(canSeeVersion(EDITOR, project(), 4, NOW)).toEqual(refused('not-found'));
    expect(canSeeVersion(GUEST, project(), 1, NOW)).toEqual(refused('not-found'));
  });

  it('maps every refusal to an HTTP status', () => {
    expect(REVIEW_REFUSAL_STATUS).toEqual({ 'not-found': 404, forbidden: 403, closed: 409, invalid: 400 });
  });
});

describe('decideCreateComment: who and when', () => {
  const OPEN_STATUSES = PROJECT_STATUSES.filter((s) => !['APPROVED', 'ARCHIVED', 'DELETED', 'HIDDEN'].includes(s));

  it('closes commenting after approval and for deleted projects', () => {
    expect(OPEN_STATUSES).toEqual(['OPENED', 'WAITING_FOR_EDITOR', 'IN_EDITING', 'IN_REVIEW', 'PAUSED']);
    for (const status of PROJECT_STATUSES) expect(isCommentingOpen(status)).toBe(OPEN_STATUSES.includes(status));
  });

  it.each([SUPERADMIN, ADMIN, EDITOR, OWNER, USER])('lets %j comment on a visible version of an open project', (actor) => {
    for (const status of OPEN_STATUSES) expect(decideCreateComment(actor, project(status), draft(), NOW)).toEqual(OK);
  });

  it('lets a guest with an active link comment under a name', () => {
    expect(decideCreateComment(GUEST, project(), guestDraft(), NOW)).toEqual(OK);
  });

  it.each([
    ['another organization', OTHER_OWNER, draft()],
    ['a customer without organization', ORPHAN_USER, draft()],
    ['a customer on an unreleased version', OWNER, draft({ version: 3 })],
    ['a guest on another version', GUEST, guestDraft({ version: 1 })],
    ['a guest with a revoked link', guest({ revokedAt: new Date(0) }), guestDraft()],
    ['a guest with an expired link', guest({ expiresAt: new Date(NOW - 1) }), guestDraft()],
    ['a guest with another project’s link', guest({ projectId: 9 }), guestDraft()],
    ['staff on a version that does not exist', ADMIN, draft({ version: 4 })],
  ])('refuses %s as not-found', (_, actor, input) => {
    expect(decideCreateComment(actor, project(), input, NOW)).toEqual(refused('not-found', REVIEW_MESSAGES.notFound));
  });

  it('refuses everyone as closed once approved or archived, before looking at the input', () => {
    for (const status of ['APPROVED', 'ARCHIVED'] as const) {
      for (const actor of [SUPERADMIN, ADMIN, EDITOR, OWNER, USER])
        expect(decideCreateComment(actor, project(status), draft({ text: '' }), NOW)).toEqual(refused('closed', REVIEW_MESSAGES.closed));
      expect(decideCreateComment(GUEST, project(status), guestDraft(), NOW)).toEqual(refused('closed'));
    }
  });

  it('answers staff closed but customers not-found on a deleted project', () => {
    for (const status of ['DELETED', 'HIDDEN'] as const) {
      expect(decideCreateComment(ADMIN, project(status), draft(), NOW)).toEqual(refused('closed'));
      expect(decideCreateComment(OWNER, project(status), draft(), NOW)).toEqual(refused('not-found'));
    }
  });
});

describe('decideCreateComment: the input', () => {
  const check = (input: NewComment, actor: ReviewActor = OWNER) => decideCreateComment(actor, project(), input, NOW);

  it('takes 1..2000 characters after trim', () => {
    expect(check(draft({ text: 'x' }))).toEqual(OK);
    expect(check(draft({ text: `  ${'x'.repeat(COMMENT_TEXT_MAX)}  ` }))).toEqual(OK);
    expect(check(draft({ text: '😀'.repeat(COMMENT_TEXT_MAX) }))).toEqual(OK); // characters, not UTF-16 units
    expect(check(draft({ text: 'x'.repeat(COMMENT_TEXT_MAX + 1) }))).toEqual(refused('invalid', REVIEW_MESSAGES.textTooLong));
    expect(check(draft({ text: '' }))).toEqual(refused('invalid', REVIEW_MESSAGES.textRequired));
    expect(check(draft({ text: ' \n\t ' }))).toEqual(refused('invalid', REVIEW_MESSAGES.textRequired));
    expect(check(draft({ text: 'a\u0000b' }))).toEqual(refused('invalid'));
    expect(check(draft({ text: 'a\uD800b' }))).toEqual(refused('invalid'));
  });

  it('validateCommentText answers the same messages', () => {
    expect(validateCommentText('ok')).toBeUndefined();
    expect(validateCommentText('   ')).toBe(REVIEW_MESSAGES.textRequired);
    expect(validateCommentText('x'.repeat(2001))).toBe(REVIEW_MESSAGES.textTooLong);
  });

  it('places a thread on a whole frame ≥ 0, with an optional end after it', () => {
    expect(check(draft({ frame: 0 }))).toEqual(OK);
    expect(check(draft({ frame: 10, endFrame: 11 }))).toEqual(OK);
    expect(check(draft({ frame: 10, endFrame: null }))).toEqual(OK);
    for (const frame of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, null, undefined])
      expect(check(draft({ frame }))).toEqual(refused('invalid', REVIEW_MESSAGES.frameInvalid));
    for (const endFrame of [10, 9, 10.5, -1, Number.NaN])
      expect(check(draft({ frame: 10, endFrame }))).toEqual(refused('invalid', REVIEW_MESSAGES.endFrameInvalid));
  });

  it('keeps frames within the video when its length is known', () => {
    expect(check(draft({ frame: 100, endFrame: 200, durationFrames: 200 }))).toEqual(OK);
    expect(check(draft({ frame: 200, durationFrames: 200 }))).toEqual(OK); // paused at the very end
    expect(check(draft({ frame: 201, durationFrames: 200 }))).toEqual(refused('invalid', REVIEW_MESSAGES.pastEnd));
    expect(check(draft({ frame: 100, endFrame: 201, durationFrames: 200 }))).toEqual(refused('invalid', REVIEW_MESSAGES.pastEnd));
    expect(check(draft({ frame: 10_000_000, durationFrames: null }))).toEqual(OK);
  });

  it('takes replies one level deep, on the thread’s version, without a frame', () => {
    expect(check(draft({ frame: null, parent: { version: 2, parentId: null } }))).toEqual(OK);
    expect(check(draft({ frame: undefined, parent: { version: 2, parentId: null } }))).toEqual(OK);
    expect(check(draft({ frame: null, parent: { version: 2, parentId: 5 } }))).toEqual(refused('invalid', REVIEW_MESSAGES.replyDepth));
    expect(check(draft({ frame: null, version: 1, parent: { version: 2, parentId: null } }))).toEqual(refused('invalid', REVIEW_MESSAGES.replyVersion));
    expect(check(draft({ frame: 12, parent: { version: 2, parentId: null } }))).toEqual(refused('invalid', REVIEW_MESSAGES.replyFrame));
    expect(check(draft({ frame: null, endFrame: 12, parent: { version: 2, parentId: null } }))).toEqual(refused('invalid', REVIEW_MESSAGES.replyFrame));
    expect(check(guestDraft({ frame: null, parent: { version: 2, parentId: null } }), GUEST)).toEqual(OK);
  });

  it('asks guests for a name and members for none', () => {
    expect(check(draft(), GUEST)).toEqual(refused('invalid', REVIEW_MESSAGES.guestNameRequired));
    expect(check(guestDraft({ guestName: '   ' }), GUEST)).toEqual(refused('invalid', REVIEW_MESSAGES.guestNameRequired));
    expect(check(guestDraft({ guestName: 'x'.repeat(GUEST_NAME_MAX) }), GUEST)).toEqual(OK);
    expect(check(guestDraft({ guestName: 'x'.repeat(GUEST_NAME_MAX + 1) }), GUEST)).toEqual(refused('invalid', REVIEW_MESSAGES.guestNameTooLong));
    expect(check(guestDraft({ guestName: 'a\u0000' }), GUEST)).toEqual(refused('invalid'));
    expect(check(guestDraft(), OWNER)).toEqual(refused('invalid', REVIEW_MESSAGES.guestNameFromMember));
    expect(check(draft({ guestName: null }), OWNER)).toEqual(OK);
    expect(check(draft({ guestName: '' }), OWNER)).toEqual(OK);
  });
});

describe('decideResolve', () => {
  const byUser = comment(); // written by USER (11)
  const byGuest = comment({ authorUserId: null, authorGuestName: 'Dana' });

  it.each([
    ['SUPERADMIN', SUPERADMIN, byUser, OK],
    ['ADMIN', ADMIN, byUser, OK],
    ['EDITOR', EDITOR, byUser, OK],
    ['the author', USER, byUser, OK],
    ['staff, on a guest’s thread', EDITOR, byGuest, OK],
    ['the organization owner, not the author', OWNER, byUser, refused('forbidden', REVIEW_MESSAGES.resolveForbidden)],
    ['a guest, even the author', GUEST, byGuest, refused('forbidden', REVIEW_MESSAGES.resolveForbidden)],
    ['a customer, on a guest’s thread', OWNER, byGuest, refused('forbidden')],
    ['another organization', OTHER_OWNER, byUser, refused('not-found')],
  ])('%s: %j', (_, actor, target, expected) => {
    expect(decideResolve(actor, project(), target, NOW)).toEqual(expected);
    expect(decideResolve(actor, project(), { ...target, resolved: true }, NOW)).toEqual(expected); // reopen: same rule
  });

  it('resolves threads, not replies', () => {
    expect(decideResolve(ADMIN, project(), comment({ parentId: 4 }), NOW)).toEqual(refused('invalid', REVIEW_MESSAGES.resolveReply));
  });

  it('is closed after approval, for staff too', () => {
    expect(decideResolve(ADMIN, project('APPROVED'), byUser, NOW)).toEqual(refused('closed'));
    expect(decideResolve(USER, project('ARCHIVED'), byUser, NOW)).toEqual(refused('closed'));
  });

  it('hides comments of unreleased versions from their customer author', () => {
    expect(decideResolve(USER, project('IN_EDITING', { releasedVersions: 1 }), byUser, NOW)).toEqual(refused('not-found'));
  });
});

describe('decideEdit', () => {
  const byUser = comment();

  it('lets only the author edit, staff included', () => {
    expect(decideEdit(USER, project(), byUser, 'Better wording', NOW)).toEqual(OK);
    for (const actor of [SUPERADMIN, ADMIN, EDITOR, OWNER])
      expect(decideEdit(actor, project(), byUser, 'x', NOW)).toEqual(refused('forbidden', REVIEW_MESSAGES.editForbidden));
    expect(decideEdit(ADMIN, project(), comment({ authorUserId: 2 }), 'mine', NOW)).toEqual(OK);
  });

  it('lets no guest edit, whatever name they type', () => {
    expect(decideEdit(GUEST, project(), comment({ authorUserId: null, authorGuestName: 'Dana' }), 'x', NOW)).toEqual(refused('forbidden'));
  });

  it('validates the new text and closes after approval', () => {
    expect(decideEdit(USER, project(), byUser, '  ', NOW)).toEqual(refused('invalid', REVIEW_MESSAGES.textRequired));
    expect(decideEdit(USER, project(), byUser, 'x'.repeat(2001), NOW)).toEqual(refused('invalid', REVIEW_MESSAGES.textTooLong));
    expect(decideEdit(USER, project('APPROVED'), byUser, 'x', NOW)).toEqual(refused('closed'));
    expect(decideEdit(OTHER_OWNER, project(), byUser, 'x', NOW)).toEqual(refused('not-found'));
  });
});

describe('decideDelete', () => {
  const byUser = comment();
  const byGuest = comment({ authorUserId: null, authorGuestName: 'Dana' });

  it('lets the author and administrators delete', () => {
    expect(decideDelete(USER, project(), byUser, NOW)).toEqual(OK);
    expect(decideDelete(ADMIN, project(), byUser, NOW)).toEqual(OK);
    expect(decideDelete(SUPERADMIN, project(), byGuest, NOW)).toEqual(OK);
  });

  it('refuses editors, other customers and guests', () => {
    expect(decideDelete(EDITOR, project(), byUser, NOW)).toEqual(refused('forbidden', REVIEW_MESSAGES.deleteForbidden));
    expect(decideDelete(OWNER, project(), byUser, NOW)).toEqual(refused('forbidden'));
    expect(decideDelete(GUEST, project(), byGuest, NOW)).toEqual(refused('forbidden'));
    expect(decideDelete(OTHER_OWNER, project(), byUser, NOW)).toEqual(refused('not-found'));
  });

  it('keeps approved comments, except for moderation by administrators', () => {
    for (const status of ['APPROVED', 'ARCHIVED', 'HIDDEN'] as const) {
      expect(decideDelete(ADMIN, project(status), byUser, NOW)).toEqual(OK);
      expect(decideDelete(EDITOR, project(status), comment({ authorUserId: 3 }), NOW)).toEqual(refused('closed'));
    }
    expect(decideDelete(USER, project('APPROVED'), byUser, NOW)).toEqual(refused('closed'));
    expect(decideDelete(USER, project('DELETED'), byUser, NOW)).toEqual(refused('not-found'));
  });
});

describe('decideRequestChanges', () => {
  it('needs an open comment or a written note', () => {
    expect(decideRequestChanges({ openComments: 1, note: null })).toEqual(OK);
    expect(decideRequestChanges({ openComments: 0, note: 'Shorter intro please' })).toEqual(OK);
    expect(decideRequestChanges({ openComments: 0, note: '  \n ' })).toEqual(refused('invalid', REVIEW_MESSAGES.changesNeedFeedback));
    expect(decideRequestChanges({ openComments: 0, note: undefined })).toEqual(refused('invalid'));
    expect(canRequestChanges({ openComments: 3, note: '' })).toBe(true);
    expect(canRequestChanges({ openComments: 0, note: '' })).toBe(false);
  });
});

describe('commentPermissions (the list decides once per version)', () => {
  it('agrees with decideEdit, decideResolve and decideDelete for every actor, status, version and comment', () => {
    const actors = [SUPERADMIN, ADMIN, EDITOR, OWNER, USER, OTHER_OWNER, ORPHAN_USER, GUEST, guest({ revokedAt: '2025-01-01T00:00:00Z' })];
    const comments = [
      comment(),
      comment({ parentId: 5 }),
      comment({ authorUserId: 10 }),
      comment({ authorUserId: null }),
      comment({ authorUserId: 3, parentId: 9 }),
    ];
    let checked = 0;
    for (const actor of actors) {
      for (const status of PROJECT_STATUSES) {
        for (const version of [1, 2, 3]) {
          const decide = commentPermissions(actor, project(status), version, NOW);
          for (const base of comments) {
            const stored = { ...base, version };
            expect(decide(stored), `${JSON.stringify(actor)} ${status} v${version} ${JSON.stringify(base)}`).toEqual({
              canEdit: decideEdit(actor, project(status), stored, 'kept text', NOW).ok,
              canResolve: stored.parentId === null && decideResolve(actor, project(status), stored, NOW).ok,
              canDelete: decideDelete(actor, project(status), stored, NOW).ok,
            });
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBe(9 * PROJECT_STATUSES.length * 3 * 5);
  });
});
