import { listStaffUsers } from '@/shared/users/api/list-users.ts';

/** Enabled editors for the assignment dropdown (A§7 users by role). */
export async function listEditors() {
  const editors = await listStaffUsers('editor', 0, 200);
  return editors.filter((e) => e.isEnabled === 1 && !e.deletedAt);
}
