import * as superstruct from 'superstruct';
import type { AnyStruct, JsonSchema } from './json-schema.ts';

/**
 * What superstruct does not keep, kept when a struct is made, so the API document can be read
 * off the structs exactly (json-schema.ts) instead of guessed from the values they accept.
 *
 * superstruct keeps `type` and `schema` on a struct, but `optional`, `nullable`, `defaulted` and
 * `coerce` return a copy of their struct (same type, same schema) that differs only in its
 * functions, `union`, `record` and `tuple` keep their members in closures, refinements (`size`,
 * `min`…) keep their bounds in closures, and a `define`d check is a function. The functions
 * here call superstruct's and note what they were made of; the contract modules use them
 * instead of superstruct's (tests/domain/contract-declarations.test.ts checks the imports).
 *
 * A custom check (`define`, `refine`) tells nothing of what it accepts: it must be given its
 * JSON Schema with `describedAs`, or the document cannot be built (json-schema.ts throws, naming
 * it). The test above compares every declaration with what probing its check finds.
 */

export type Note =
  | { kind: 'optional' | 'nullable' | 'defaulted' | 'coerced'; of: AnyStruct }
  /** `size`, `min`, `max`, `pattern`, `nonempty`: `of`'s schema with these keywords added. */
  | { kind: 'refined'; of: AnyStruct; adds: JsonSchema }
  | { kind: 'union'; members: readonly AnyStruct[] }
  | { kind: 'record'; key: AnyStruct; value: AnyStruct }
  | { kind: 'tuple'; items: readonly AnyStruct[] }
  /** A `define`d or `refine`d check no one has described yet. */
  | { kind: 'custom'; name: string }
  | { kind: 'described'; name: string; schema: JsonSchema; optional: boolean; nullable: boolean };

const notes = new WeakMap<AnyStruct, Note>();

/** What `struct` was made of, when it was made here. */
export function noteOf(struct: AnyStruct): Note | undefined {
  return notes.get(struct);
}

function noted<S extends AnyStruct>(struct: S, note: Note): S {
  notes.set(struct, note);
  return struct;
}

export interface Described {
  /** The check itself takes a missing value (not only through `optional()`). */
  optional?: boolean;
  /** The check itself takes null: the document adds null to `schema`. */
  nullable?: boolean;
}

/**
 * Gives a custom check its JSON Schema: what the document says it accepts, exactly (bounds,
 * formats, value sets), for a value that is not null. Returns the check.
 */
export function describedAs<S extends AnyStruct>(struct: S, schema: JsonSchema, described: Described = {}): S {
  const note = notes.get(struct);
  const name = note?.kind === 'custom' || note?.kind === 'described' ? note.name : struct.type;
  return noted(struct, { kind: 'described', name, schema, optional: described.optional ?? false, nullable: described.nullable ?? false });
}

export const define: typeof superstruct.define = (name, validator) => noted(superstruct.define(name, validator), { kind: 'custom', name });
export const refine: typeof superstruct.refine = (struct, name, refiner) => noted(superstruct.refine(struct, name, refiner), { kind: 'custom', name });

export const optional: typeof superstruct.optional = (struct) => noted(superstruct.optional(struct), { kind: 'optional', of: struct });
export const nullable: typeof superstruct.nullable = (struct) => noted(superstruct.nullable(struct), { kind: 'nullable', of: struct });
export const defaulted: typeof superstruct.defaulted = (struct, fallback, options) =>
  noted(superstruct.defaulted(struct, fallback, options), { kind: 'defaulted', of: struct });
/** Documented as `struct`: the coercion turns what is sent into what `struct` checks. */
export const coerce: typeof superstruct.coerce = (struct, condition, coercer) =>
  noted(superstruct.coerce(struct, condition, coercer), { kind: 'coerced', of: struct });

export const union: typeof superstruct.union = (structs) => noted(superstruct.union(structs), { kind: 'union', members: [...structs] });
export const record: typeof superstruct.record = (key, value) => noted(superstruct.record(key, value), { kind: 'record', key, value });
export const tuple: typeof superstruct.tuple = (structs) => noted(superstruct.tuple(structs), { kind: 'tuple', items: [...structs] });

type Sized = 'string' | 'array' | 'number';
function sizeKind(struct: AnyStruct): Sized | undefined {
  const note = notes.get(struct);
  if (note && 'of' in note) return sizeKind(note.of);
  const type = note?.kind === 'described' ? note.schema.type : struct.type;
  if (type === 'string' || type === 'array') return type;
  if (type === 'number' || type === 'integer') return 'number';
  return undefined;
}

/** A refinement of `of` adding `adds` to its schema; without keywords (a Date bound, the size of a Map), a custom check to describe. */
function refined<S extends AnyStruct>(struct: S, of: AnyStruct, name: string, adds: JsonSchema | undefined): S {
  return noted(struct, adds ? { kind: 'refined', of, adds } : { kind: 'custom', name });
}

function sizeKeywords(struct: AnyStruct, min: number, max: number): JsonSchema | undefined {
  const kind = sizeKind(struct);
  if (kind === 'string') return { minLength: min, maxLength: max };
  if (kind === 'array') return { minItems: min, maxItems: max };
  if (kind === 'number') return { minimum: min, maximum: max };
  return undefined;
}

const bound = (keyword: string, threshold: number | Date): JsonSchema | undefined => (typeof threshold === 'number' ? { [keyword]: threshold } : undefined);

export const size: typeof superstruct.size = (struct, min, max = min) =>
  refined(superstruct.size(struct, min, max), struct, 'size', sizeKeywords(struct, min, max));
export const nonempty: typeof superstruct.nonempty = (struct) => {
  const kind = sizeKind(struct);
  return refined(superstruct.nonempty(struct), struct, 'nonempty', kind === 'array' ? { minItems: 1 } : kind === 'string' ? { minLength: 1 } : undefined);
};
export const min: typeof superstruct.min = (struct, threshold, options = {}) =>
  refined(superstruct.min(struct, threshold, options), struct, 'min', bound(options.exclusive ? 'exclusiveMinimum' : 'minimum', threshold));
export const max: typeof superstruct.max = (struct, threshold, options = {}) =>
  refined(superstruct.max(struct, threshold, options), struct, 'max', bound(options.exclusive ? 'exclusiveMaximum' : 'maximum', threshold));
export const pattern: typeof superstruct.pattern = (struct, regexp) =>
  refined(superstruct.pattern(struct, regexp), struct, 'pattern', { pattern: regexp.source });
