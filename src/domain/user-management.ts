import { pathTo } from './pages.ts';
import { isManagerRole, isStaffRole, type RoleName } from './roles.ts';

/**
 * Who may manage which user (C§6, A§6). The owner manages the users of their own
 * organization; admins manage editors; the superadmin manages editors and admins. Nobody
 * disables, deletes or re-invites themselves. The UI hides what this refuses and the server
 * refuses it again.
 */
export type UserAction = 'edit' | 'enable' | 'delete' | 'invite';

export interface Person {
  id: number;
  role: RoleName;
  organizationId: number | null;
}

export type ManageDecision = { allowed: true } | { allowed: false; status: 403 | 404; message: string };

export const USER_MESSAGES = {
  self: 'You cannot disable or delete your own account.',
  role: 'You do not have permission to manage this user.',
  notFound: 'Not found.',
  editorHasProjects: 'You can not delete an editor who has assigned projects.',
  inviteDisabled: 'Enable the user before sending a new invitation.',
  editDisabled: 'Enable the user before editing their details.',
  otherOrganization: 'A user cannot be moved to another organization.',
  roleInvalid: 'Choose one of the roles User, Editor or Admin.',
  pictureInvalid: 'The picture must be a JPEG, PNG, GIF or BMP image of at most 100 KB.',
  phoneTooLong: 'The phone number must be at most 30 characters.',
  enabledInvalid: 'isEnabled must be true or false (1 or 0).',
  impersonating: "Signed in as the customer, staff cannot add or change the customer's users: the owner does that.",
  adminBySuperadminOnly: 'Only a superadmin can add an admin. Admins add editors.',
  noNewSuperadmin: 'A superadmin cannot be added here: choose Editor or Admin.',
  createRole: 'You do not have permission to add a user with this role.',
} as const;

/**
 * A trial user is the owner of an organization with no subscription yet; the trial lasts
 * this many days from the organization's creation (docs/decisions.md).
 */
export const TRIAL_DAYS = 14;

/**
 * A§2 onboarding tab 2, a trial user's registration link (issue 12): the customer sign-in with
 * their e-mail, going on to the plans, where their registration ends. It is their own, and
 * holds no secret: a list of links that signed people in, or a one-time code issued for every
 * row shown, would hand accounts to whoever reads the list (or revoke the code e-mailed last).
 */
export function trialRegistrationLink(publicUrl: string, email: string): string {
  return `${publicUrl}${pathTo('customerSignIn')}?email=${encodeURIComponent(email)}&next=${encodeURIComponent(pathTo('pricing'))}`;
}

/** Roles each role may create with POST users. */
const CREATABLE: Partial<Record<RoleName, readonly RoleName[]>> = {
  OWNER: ['USER'],
  ADMIN: ['EDITOR'],
  SUPERADMIN: ['EDITOR', 'ADMIN'],
};

/** Roles each staff role manages. */
const MANAGED_STAFF: Partial<Record<RoleName, readonly RoleName[]>> = {
  ADMIN: ['EDITOR'],
  SUPERADMIN: ['EDITOR', 'ADMIN'],
};

export function mayCreateRole(actor: RoleName, role: RoleName): boolean {
  return CREATABLE[actor]?.includes(role) ?? false;
}

/** The staff roles `actor` may give a new staff user, in the order the role choice lists them (issue 36). */
export function creatableStaffRoles(actor: RoleName): ('EDITOR' | 'ADMIN')[] {
  return (['EDITOR', 'ADMIN'] as const).filter((role) => mayCreateRole(actor, role));
}

/**
 * Why `actor` may not create a user of `role`, in words for the person (issue 36): staff who
 * may add users are told which role is beyond them; anything else is the plain refusal.
 */
export function createRoleRefusal(actor: RoleName, role: RoleName): string | null {
  if (mayCreateRole(actor, role)) return null;
  const staffManager = actor === 'ADMIN' || actor === 'SUPERADMIN';
  if (staffManager && role === 'SUPERADMIN') return USER_MESSAGES.noNewSuperadmin;
  if (staffManager && role === 'ADMIN') return USER_MESSAGES.adminBySuperadminOnly;
  return USER_MESSAGES.createRole;
}

const allow: ManageDecision = { allowed: true };
const deny = (status: 403 | 404, message: string): ManageDecision => ({ allowed: false, status, message });

/**
 * May `actor` do `action` to `target`? `impersonated`: staff act through a Log In As session.
 * They may look at the customer's users but change none of them: an added user or a changed
 * e-mail would be an account of the admin's that outlives the impersonation and their access.
 */
export function decideUserAction(actor: Person, target: Person, action: UserAction, impersonated = false): ManageDecision {
  const isCustomer = actor.role === 'OWNER' || actor.role === 'USER';
  // For a customer, another organization's users (and staff) do not exist.
  if (isCustomer && (target.organizationId === null || target.organizationId !== actor.organizationId)) return deny(404, USER_MESSAGES.notFound);
  if (actor.role === 'USER' || actor.role === 'EDITOR') return deny(403, USER_MESSAGES.role);
  if (impersonated) return deny(403, USER_MESSAGES.impersonating);
  if (target.id === actor.id) return action === 'edit' ? allow : deny(403, USER_MESSAGES.self);
  if (actor.role === 'OWNER') return target.role === 'USER' ? allow : deny(403, USER_MESSAGES.role);
  return MANAGED_STAFF[actor.role]?.includes(target.role) ? allow : deny(403, USER_MESSAGES.role);
}

/** The role named in a POST users payload ("User", "Editor", "Admin", any case); null when unknown. */
export function parseRoleName(raw: string): RoleName | null {
  const upper = raw.trim().toUpperCase();
  return (['SUPERADMIN', 'ADMIN', 'EDITOR', 'OWNER', 'USER'] as const).find((r) => r === upper) ?? null;
}

/** A§5: the picture upload accepts gif, jpeg, jpg, png and bmp. */
export const PICTURE_EXTENSIONS = ['gif', 'jpeg', 'jpg', 'png', 'bmp'] as const;
export const PICTURE_WIDTH = 200;
/** Largest profilePictureUrl the server stores: a 200 px JPEG is far smaller. */
export const PICTURE_MAX_CHARS = 140_000;

export function isAcceptedPicture(fileName: string, mimeType: string): boolean {
  const extension = fileName.split('.').pop()?.toLowerCase() ?? '';
  const typeOk = /^image\/(gif|jpeg|jpg|png|bmp|x-ms-bmp)$/.test(mimeType) || mimeType === '';
  return typeOk && (PICTURE_EXTENSIONS as readonly string[]).includes(extension);
}

const PICTURE_DATA_URL = /^data:image\/(jpeg|png|gif|bmp);base64,[A-Za-z0-9+/]+=*$/;

/** A stored picture is a base64 image data: URL or an https address, at most 140,000 characters. */
export function pictureRule(value: string): string | undefined {
  if (!value) return undefined;
  if (value.length > PICTURE_MAX_CHARS) return USER_MESSAGES.pictureInvalid;
  if (PICTURE_DATA_URL.test(value)) return undefined;
  try {
    return new URL(value).protocol === 'https:' ? undefined : USER_MESSAGES.pictureInvalid;
  } catch {
    return USER_MESSAGES.pictureInvalid;
  }
}

/** A§5: the editor's (WhatsApp) phone has no rule; the server only caps its length. */
export const EDITOR_PHONE_MAX = 30;
export function editorPhoneRule(value: string): string | undefined {
  return value.length > EDITOR_PHONE_MAX ? USER_MESSAGES.phoneTooLong : undefined;
}

/**
 * A§7 GET users by role: any staff member reads the editors (the dashboard they share names
 * them); the other staff lists are for superadmins and admins.
 */
export function mayListUsers(actorRole: string, listRole: 'editor' | 'admin' | 'superadmin' | 'staff'): boolean {
  return listRole === 'editor' ? isStaffRole(actorRole) : isManagerRole(actorRole);
}
