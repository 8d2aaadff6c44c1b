import { canSeeVersion, isShareLinkActive, type ReviewActor, type ReviewDecision, type ReviewProject, type ShareLink } from './review-rules.ts';
import { ROLES, type RoleName } from './roles.ts';

/**
 * Guest review links (issue 13): the owner shares one version of a project with someone who has
 * no account. The rules of making, listing and revoking them; what a guest may then see and write
 * is review-rules.ts's (`kind: 'guest'`).
 */

/** The role a guest's comment is shown with. Not a role of the product: nobody signs in as it. */
export const GUEST_ROLE = 'GUEST';
export type CommentAuthorRole = RoleName | typeof GUEST_ROLE;
export const COMMENT_AUTHOR_ROLES = [...ROLES, GUEST_ROLE] as const;

/** A link always expires: the choices the owner has, in days (7 unless chosen). */
export const SHARE_LINK_EXPIRY_DAYS = [1, 7, 30] as const;
export type ShareLinkExpiryDays = (typeof SHARE_LINK_EXPIRY_DAYS)[number];
export const SHARE_LINK_DEFAULT_DAYS: ShareLinkExpiryDays = 7;
/** An optional password, in characters: short enough to read out, long enough not to be guessed in the attempts allowed. */
export const SHARE_PASSWORD_MIN = 6;
export const SHARE_PASSWORD_MAX = 128;
/** Links a project can hold that still work; revoked and expired ones do not count. */
export const ACTIVE_SHARE_LINKS_MAX = 20;

export const SHARE_MESSAGES = {
  ownerOnly: 'Only the organization’s owner can share a version with guests.',
  notReleased: 'Only a version sent to you for review can be shared.',
  closed: 'This project is not in review any more: its versions cannot be shared.',
  tooMany: `This project already has ${ACTIVE_SHARE_LINKS_MAX} working links. Revoke one before making another.`,
  expiryInvalid: `Choose how long the link works: ${SHARE_LINK_EXPIRY_DAYS.join(', ')} days.`,
  passwordTooShort: `A password needs at least ${SHARE_PASSWORD_MIN} characters.`,
  passwordTooLong: `A password can be at most ${SHARE_PASSWORD_MAX} characters.`,
  linkGone: 'This review link has expired or was revoked. Ask the person who sent it for a new one.',
  passwordRequired: 'This link is protected. Enter the password you were given.',
  passwordWrong: 'That password is not right. Check it and try again.',
  impersonating: 'An administrator signed in as a customer cannot share the customer’s videos.',
} as const;

/** Whether a share link can be made for the version: the owner, of a version they were sent, while the project is in review. */
export function decideCreateShareLink(actor: ReviewActor, project: ReviewProject, version: number, activeLinks: number): ReviewDecision {
  const seen = canSeeVersion(actor, project, version);
  if (!seen.ok) return seen;
  if (actor.kind !== 'member' || actor.role !== 'OWNER' || actor.organizationId !== project.organizationId)
    return { ok: false, reason: 'forbidden', message: SHARE_MESSAGES.ownerOnly };
  if (project.status !== 'IN_REVIEW') return { ok: false, reason: 'closed', message: SHARE_MESSAGES.closed };
  if (activeLinks >= ACTIVE_SHARE_LINKS_MAX) return { ok: false, reason: 'closed', message: SHARE_MESSAGES.tooMany };
  return { ok: true };
}

/** Whether the caller may list and revoke the project's links: its organization's owner (staff, to help, may look). */
export function canManageShareLinks(actor: ReviewActor, project: Pick<ReviewProject, 'organizationId'>): boolean {
  return actor.kind === 'member' && actor.role === 'OWNER' && actor.organizationId === project.organizationId;
}

/** The optional password's rule; a message, or undefined when it fits (or is absent). */
export function validateSharePassword(password: string | null | undefined): string | undefined {
  if (password === null || password === undefined || password === '') return undefined;
  const length = [...password].length;
  if (length < SHARE_PASSWORD_MIN) return SHARE_MESSAGES.passwordTooShort;
  if (length > SHARE_PASSWORD_MAX) return SHARE_MESSAGES.passwordTooLong;
  return undefined;
}

export function isShareLinkExpiry(days: unknown): days is ShareLinkExpiryDays {
  return SHARE_LINK_EXPIRY_DAYS.includes(days as ShareLinkExpiryDays);
}

export type ShareLinkState = 'active' | 'expired' | 'revoked';

/** How the owner's list shows a link. */
export function shareLinkState(link: Pick<ShareLink, 'expiresAt' | 'revokedAt'>, now: Date | number = Date.now()): ShareLinkState {
  if (link.revokedAt !== null) return 'revoked';
  return isShareLinkActive({ projectId: 0, version: 0, ...link }, now) ? 'active' : 'expired';
}
