import { USERS_LIST_LIMIT } from '@/domain/constants.ts';
import { listStaffUsers } from '@/shared/users/api/list-users.ts';

/** A§2 admin settings users: every staff user, table limit 100. */
export function listStaff() {
  return listStaffUsers('staff', 0, USERS_LIST_LIMIT);
}
