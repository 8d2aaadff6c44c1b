import { TRIAL_USERS_LIMIT, TrialUserListStruct } from '@/domain/contract/users.ts';
import { api } from '@/lib/api-client.ts';

/** A§7 GET users/trial, 20 per page. */
export function listTrialUsers(start: number) {
  return api('GET', '/users/trial', { query: { start, limit: TRIAL_USERS_LIMIT }, struct: TrialUserListStruct });
}
