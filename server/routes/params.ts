import { MAX_ID } from '../../src/domain/contract/fields.ts';
import { notFound } from '../http-error.ts';

/** The `:id` path parameter as a positive integer written plainly (no sign, no leading zero); anything else cannot name a row (404). */
export function idParam(params: unknown, name = 'id'): number {
  const raw = (params as Record<string, string | undefined>)[name];
  const id = Number(raw);
  if (!raw || !/^[1-9]\d*$/.test(raw) || !Number.isSafeInteger(id) || id <= 0 || id > MAX_ID) throw notFound();
  return id;
}
