import * as operations from '@/domain/contract/users.ts';
import { TRIAL_USERS_LIMIT } from '@/domain/contract/users.ts';
import { call } from '@/lib/api-client.ts';

/** A§7 GET users/trial, 20 per page. */
export function listTrialUsers(start: number) {
  return call(operations.listTrialUsers, { query: { start, limit: TRIAL_USERS_LIMIT } });
}
