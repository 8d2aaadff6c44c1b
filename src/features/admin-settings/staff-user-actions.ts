import type { UserAction } from '@/domain/user-management.ts';

/** The entries of a staff user's actions menu, in menu order. */
export type StaffMenuEntry = 'disable' | 'enable' | 'invite' | 'edit' | 'delete';

/**
 * A§2 admin settings users table: enable/disable, resend invite link, edit (only when enabled),
 * delete; each only when the actor may (`may`, from src/domain/user-management.ts). A disabled
 * user has no Edit entry at all, not a greyed-out one (issue 12).
 */
export function staffMenuEntries(user: { isEnabled: number }, may: (action: UserAction) => boolean): StaffMenuEntry[] {
  const entries: StaffMenuEntry[] = [];
  if (may('enable')) entries.push(user.isEnabled ? 'disable' : 'enable');
  if (may('invite')) entries.push('invite');
  if (may('edit') && user.isEnabled) entries.push('edit');
  if (may('delete')) entries.push('delete');
  return entries;
}
