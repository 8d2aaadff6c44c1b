import { enums, literal, nullable, number, object, string, tuple, union, type Infer } from 'superstruct';
import { DASHBOARD_SORTS } from '../../src/domain/contract/projects.ts';
import { badRequest, validateInput } from '../http-error.ts';
import type { SortKey, TimerKey } from '../repositories/dashboard.ts';

/**
 * The board's page cursor (issue 14, keyset paging): where the next page starts, as the sort,
 * order and tab it belongs to and the key of the last row shown. Opaque to the client (base64url
 * JSON) and not signed: it holds only sort values and ids, and the page is read with the same
 * access rules whatever it says, so a forged cursor can only skip rows the caller may see.
 */

export const CURSOR_MESSAGES = {
  invalid: 'This page of the list is no longer valid. Reload the list.',
  mismatch: 'This page belongs to another sort or tab. Reload the list.',
  both: 'Use either start or after, not both.',
} as const;

const Key = tuple([string(), number()]);
const CursorStruct = object({
  v: literal(1),
  tab: enums(['active', 'archived', 'hidden']),
  sort: enums(DASHBOARD_SORTS),
  order: enums(['asc', 'desc']),
  key: union([Key, object({ running: nullable(Key), frozen: nullable(Key) })]),
});
type Cursor = Infer<typeof CursorStruct>;
export type CursorScope = Pick<Cursor, 'tab' | 'sort' | 'order'>;

const INTEGER = /^-?\d{1,9}$/;
const BIGINT = /^-?\d{1,18}$/;
/** What each sort's key looks like as PostgreSQL writes it as text. */
const KEY_SHAPE: Record<(typeof DASHBOARD_SORTS)[number], RegExp> = {
  // Sort keys (src/domain/collation.ts): a few units per character and the name after them; no NUL, which PostgreSQL's text refuses.
  name: /^[^\0]{0,1000}$/,
  organization: /^[^\0]{0,1000}$/,
  status: INTEGER,
  version: INTEGER,
  createdAt: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d{1,6})?[+-]\d{2}(?::\d{2})?$/,
  timer: BIGINT,
};

export function encodeCursor(scope: CursorScope, key: SortKey | TimerKey): string {
  return Buffer.from(JSON.stringify({ v: 1, ...scope, key })).toString('base64url');
}

/** The key a cursor continues from, for a page of `scope`; 400 when it is not one of ours or belongs elsewhere. */
export function decodeCursor(text: string, scope: CursorScope): SortKey | TimerKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(CURSOR_MESSAGES.invalid, { fields: { after: CURSOR_MESSAGES.invalid } });
  }
  const checked = validateInput(parsed, CursorStruct, {}, () => true);
  if (!checked.ok) throw badRequest(CURSOR_MESSAGES.invalid, { fields: { after: CURSOR_MESSAGES.invalid } });
  const cursor = checked.value;
  if (cursor.tab !== scope.tab || cursor.sort !== scope.sort || cursor.order !== scope.order || Array.isArray(cursor.key) !== (scope.sort !== 'timer')) {
    throw badRequest(CURSOR_MESSAGES.mismatch, { fields: { after: CURSOR_MESSAGES.mismatch } });
  }
  // Every key is cast by the SQL: one that would not cast is refused here, never a 500 there.
  const key = cursor.key as SortKey | TimerKey;
  const checks: [[string, number] | null, RegExp][] = Array.isArray(key)
    ? [[key, KEY_SHAPE[scope.sort]]]
    : [
        [key.running, BIGINT],
        [key.frozen, INTEGER],
      ];
  if (checks.some(([pair, shape]) => pair !== null && (!Number.isSafeInteger(pair[1]) || pair[1] < 0 || pair[1] > 2_147_483_647 || !shape.test(pair[0])))) {
    throw badRequest(CURSOR_MESSAGES.invalid, { fields: { after: CURSOR_MESSAGES.invalid } });
  }
  return key;
}
