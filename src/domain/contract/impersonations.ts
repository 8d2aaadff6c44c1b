import { array, enums, object, string, type, type Infer } from 'superstruct';
import { nullable } from './schema-notes.ts';
import { defineOperation } from './define.ts';
import { Id } from './fields.ts';
import { pageQuery } from './users.ts';

/** Issue 36 item 10: the Log In As trail, a page of 50 by default (at most 100), newest first. */
export const IMPERSONATIONS_LIMIT = 50;
export const ImpersonationListQueryStruct = type(pageQuery(100, IMPERSONATIONS_LIMIT));

const Person = object({ id: Id, name: string() });

/**
 * How a Log In As session ended: `staff` (Admin logout or a sign-out; `endedAt` is when),
 * `expiry` (no end recorded and its token expired; `endedAt` is the expiry), `unknown` (a session
 * recorded before the trail kept ends), null while it lasts.
 */
export const IMPERSONATION_ENDINGS = ['staff', 'expiry', 'unknown'] as const;
export type ImpersonationEnding = (typeof IMPERSONATION_ENDINGS)[number];

export const ImpersonationStruct = object({
  id: Id,
  /** The staff member who logged in as the organization. */
  staff: Person,
  organization: object({ id: Id, name: string() }),
  /** The customer user signed in as (the owner then); null on sessions recorded before the trail. */
  customer: nullable(object({ id: Id, name: string(), email: string() })),
  startedAt: string(),
  endedAt: nullable(string()),
  endedBy: nullable(enums(IMPERSONATION_ENDINGS)),
  /** When the session's token expires (or expired); null on sessions recorded before the trail. */
  expiresAt: nullable(string()),
  clientAddress: nullable(string()),
});
export type Impersonation = Infer<typeof ImpersonationStruct>;
export const ImpersonationListStruct = array(ImpersonationStruct);

export const listImpersonations = defineOperation({
  method: 'GET',
  path: '/impersonations',
  access: 'superadmins',
  query: ImpersonationListQueryStruct,
  answer: ImpersonationListStruct,
});
/** Admin logout (or a sign-out) while signed in as a customer: the session's end, on the trail; 403 for any other token. */
export const endImpersonation = defineOperation({ method: 'POST', path: '/impersonations/end', access: 'signed-in' });

/** Whole seconds a session lasted (or has lasted by `now`); null when its end is unknown. */
export function impersonationSeconds(row: Pick<Impersonation, 'startedAt' | 'endedAt' | 'endedBy'>, now: number): number | null {
  if (row.endedBy === 'unknown') return null;
  const end = row.endedAt === null ? now : Date.parse(row.endedAt);
  return Math.max(0, Math.floor((end - Date.parse(row.startedAt)) / 1000));
}
