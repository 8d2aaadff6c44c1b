import * as operations from '@/domain/contract/impersonations.ts';
import { IMPERSONATIONS_LIMIT } from '@/domain/contract/impersonations.ts';
import { call } from '@/lib/api-client.ts';

/** The Log In As trail, under the staff lists' prefix (a session switch drops it). */
export const impersonationsKey = () => ['staff', 'impersonations'] as const;

/** A page of the Log In As trail, newest first (issue 36 item 10; superadmins only). */
export function listImpersonations(start: number) {
  return call(operations.listImpersonations, { query: { start, limit: IMPERSONATIONS_LIMIT } });
}
