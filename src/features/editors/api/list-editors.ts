import { listStaffUsers } from '@/shared/users/api/list-users.ts';

export const EDITORS_PAGE_SIZE = 50;

/** A§7 users by role: role "editor", 50 per page, newest first. */
export function listEditors(start: number) {
  return listStaffUsers('editor', start, EDITORS_PAGE_SIZE);
}
