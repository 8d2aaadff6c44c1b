import { coerce, define, nullable, number, object, optional, string, unknown, type Describe, type Struct } from 'superstruct';
import type { Rule } from '../validation.ts';

/**
 * A text field checked by one of the domain rules: the rule's message becomes the field's
 * error, so the server answers with exactly what the form shows. Missing values are checked
 * as empty text, so "required" messages come from the rule, not from superstruct.
 */
export function ruleField(name: string, rule: Rule): Struct<string, null> {
  return define<string>(name, (value) => {
    if (value !== undefined && value !== null && typeof value !== 'string') return 'Must be text.';
    return rule(value ?? '') ?? true;
  });
}

/** Any non-empty text up to `max` characters. */
export function text(max: number, message = 'This field is required'): Struct<string, null> {
  return define<string>('text', (value) => {
    if (typeof value !== 'string' || !value.trim()) return message;
    return value.length <= max || `Must be at most ${max} characters.`;
  });
}

/** Ids are PostgreSQL `integer`s: anything past this cannot name a row. */
export const MAX_ID = 2_147_483_647;

export const Id = define<number>(
  'id',
  (value) => (Number.isSafeInteger(value) && (value as number) > 0 && (value as number) <= MAX_ID) || 'Must be an id: a whole number from 1.',
);

export const ErrorBodyStruct = object({
  message: string(),
  code: optional(number()),
  fields: optional(define<Record<string, string>>('fields', (v) => typeof v === 'object' && v !== null)),
});
export type ErrorBody = { message: string; code?: number; fields?: Record<string, string> };

export { nullable, type Describe };

/**
 * `struct`, also accepting text that `read` turns into its value (query strings, form digits).
 * Only text is read; anything else is checked as it is. (superstruct's own `coerce(…, string(),
 * …)` builds a StructError, stack trace and all, for every value that is not text — an absent
 * query parameter included: a tenth of a cached dashboard request's CPU, issue 14.)
 */
export function fromText<T>(struct: Struct<T, null>, read: (text: string) => unknown): Struct<T, null> {
  return coerce(struct, unknown(), (v) => (typeof v === 'string' ? read(v) : v));
}

/** Query-string integers and booleans arrive as text. */
export const queryInt = (min = 0, max = Number.MAX_SAFE_INTEGER) =>
  fromText(
    define<number>(
      'integer',
      (v) => (Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max) || `Must be a whole number from ${min} to ${max}.`,
    ),
    (v) => (/^-?\d+$/.test(v) ? Number(v) : v),
  );
export const queryBool = () =>
  fromText(
    define<boolean>('boolean', (v) => typeof v === 'boolean' || 'Must be true or false.'),
    (v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v),
  );
