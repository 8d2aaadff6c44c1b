import { number, object, string, unknown, type Describe, type Struct } from 'superstruct';
import type { JsonSchema } from './json-schema.ts';
import { coerce, define, describedAs, nullable, optional } from './schema-notes.ts';
import type { Rule } from '../validation.ts';

/**
 * A text field checked by one of the domain rules: the rule's message becomes the field's
 * error, so the server answers with exactly what the form shows. Missing values are checked
 * as empty text, so "required" messages come from the rule, not from superstruct. `schema` is
 * what the API document says the rule takes (a rule is a function: nothing else can tell).
 */
export function ruleField(name: string, rule: Rule, schema: JsonSchema): Struct<string, null> {
  const check = define<string>(name, (value) => {
    if (value !== undefined && value !== null && typeof value !== 'string') return 'Must be text.';
    return rule(value ?? '') ?? true;
  });
  return describedAs(check, schema);
}

/** Text of `minLength` to `maxLength` characters (either left out when not bounded), for describedAs. */
export function textSchema(minLength?: number, maxLength?: number): JsonSchema {
  return { type: 'string', ...(minLength !== undefined && { minLength }), ...(maxLength !== undefined && { maxLength }) };
}

/** A whole number from `minimum` to `maximum`, for describedAs (a safe integer's own limits are left out). */
export function wholeNumberSchema(minimum: number, maximum: number = Number.MAX_SAFE_INTEGER): JsonSchema {
  return {
    type: 'integer',
    ...(minimum > Number.MIN_SAFE_INTEGER && { minimum }),
    ...(maximum < Number.MAX_SAFE_INTEGER && { maximum }),
  };
}

/** An e-mail address (emailRule). */
export const EMAIL_SCHEMA: JsonSchema = { type: 'string', format: 'email' };

/** An http(s) URL (the link rules; a profile picture may also be a data URL). */
export const LINK_SCHEMA: JsonSchema = { type: 'string', format: 'uri' };

/** Any non-empty text up to `max` characters. */
export function text(max: number, message = 'This field is required'): Struct<string, null> {
  const check = define<string>('text', (value) => {
    if (typeof value !== 'string' || !value.trim()) return message;
    return value.length <= max || `Must be at most ${max} characters.`;
  });
  return describedAs(check, textSchema(1, max));
}

/** Ids are PostgreSQL `integer`s: anything past this cannot name a row. */
export const MAX_ID = 2_147_483_647;

export const Id = describedAs(
  define<number>(
    'id',
    (value) => (Number.isSafeInteger(value) && (value as number) > 0 && (value as number) <= MAX_ID) || 'Must be an id: a whole number from 1.',
  ),
  wholeNumberSchema(1, MAX_ID),
);

export const ErrorBodyStruct = object({
  message: string(),
  code: optional(number()),
  fields: optional(
    describedAs(
      define<Record<string, string>>('fields', (v) => typeof v === 'object' && v !== null),
      { type: ['object', 'array'] },
    ),
  ),
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
    describedAs(
      define<number>(
        'integer',
        (v) => (Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max) || `Must be a whole number from ${min} to ${max}.`,
      ),
      wholeNumberSchema(min, max),
    ),
    (v) => (/^-?\d+$/.test(v) ? Number(v) : v),
  );
export const queryBool = () =>
  fromText(
    describedAs(
      define<boolean>('boolean', (v) => typeof v === 'boolean' || 'Must be true or false.'),
      { type: 'boolean' },
    ),
    (v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v),
  );
