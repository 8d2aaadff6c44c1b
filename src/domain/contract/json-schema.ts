import type { Struct } from 'superstruct';
import { noteOf } from './schema-notes.ts';

/**
 * superstruct → JSON Schema (the 2020-12 dialect of OpenAPI 3.1), so the API reference is read
 * off the very structs the server parses with and cannot drift from them.
 *
 * Each kind of struct is mapped exactly, without running it on any value (issue 33: the
 * document was once derived by feeding checks probe values, and said what the probes happened to
 * find). superstruct keeps `type` and `schema` on every struct: string, number, integer, boolean,
 * date, literal, enums, object, type, array, any, unknown and never are converted from those.
 * What it keeps nowhere was noted when the struct was made (schema-notes.ts): what optional,
 * nullable, defaulted and coerce wrap, the members of a union, record and tuple, the bounds of
 * size, min, max, pattern and nonempty, and the JSON Schema declared for each custom check
 * (`describedAs`). A custom check with no declaration, or a kind with no mapping, throws: the
 * document never says less than the struct, or something else.
 */

export type JsonSchema = { [key: string]: unknown };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyStruct = Struct<any, any>;

export interface ConvertOptions {
  /** Named structs, emitted as `{ $ref: refPrefix + name }` (object structs match by their schema, so optional()/nullable() copies too). */
  names?: ReadonlyMap<unknown, string>;
  refPrefix?: string;
  /** Called with each name a $ref was emitted for. */
  onRef?: (name: string) => void;
}

/** The key a named struct is found by: the shared schema object of object/type structs, else the struct. */
export function structKey(struct: AnyStruct): unknown {
  return (struct.type === 'object' || struct.type === 'type') && struct.schema ? struct.schema : struct;
}

function undescribed(name: string): Error {
  return new Error(`The custom check "${name}" has no JSON Schema for the API document: declare it with describedAs() (src/domain/contract/schema-notes.ts).`);
}

/** True when a missing property passes: optional(), defaulted(), a check described as taking one, any() and unknown(). */
export function isOptional(struct: AnyStruct): boolean {
  const note = noteOf(struct);
  switch (note?.kind) {
    case 'optional':
    case 'defaulted':
      return true;
    case 'nullable':
    case 'coerced':
    case 'refined':
      return isOptional(note.of);
    case 'union':
      return note.members.some(isOptional);
    case 'described':
      return note.optional;
    case 'custom':
      throw undescribed(note.name);
    default:
      return struct.type === 'any' || struct.type === 'unknown';
  }
}

/** True when null passes (for a named struct, whose $ref then takes null beside it). */
function isNullable(struct: AnyStruct): boolean {
  const note = noteOf(struct);
  switch (note?.kind) {
    case 'nullable':
      return true;
    case 'optional':
    case 'defaulted':
    case 'coerced':
    case 'refined':
      return isNullable(note.of);
    case 'union':
      return note.members.some(isNullable);
    case 'described':
      return note.nullable;
    case 'custom':
      throw undescribed(note.name);
    default:
      return false;
  }
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function constantSchema(values: readonly unknown[]): JsonSchema {
  const types = [...new Set(values.map(typeOf))];
  const type = types.length === 1 ? types[0] : types;
  return values.length === 1 ? { type, const: values[0] } : { type, enum: [...values] };
}

function takesNull(schema: JsonSchema): boolean {
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  return Array.isArray(schema.anyOf) && (schema.anyOf as JsonSchema[]).some(takesNull);
}

/** `schema`, also taking null (`{}` takes it already). */
function withNull(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).length === 0 || takesNull(schema)) return schema;
  if (typeof schema.type === 'string' && !('$ref' in schema) && !('anyOf' in schema)) {
    const out: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...(schema.enum as unknown[]), null];
    if ('const' in schema) {
      delete out.const;
      out.enum = [schema.const, null];
    }
    return out;
  }
  if (Array.isArray(schema.anyOf)) return { anyOf: [...(schema.anyOf as JsonSchema[]), { type: 'null' }] };
  return { anyOf: [schema, { type: 'null' }] };
}

/** A union: its literal and enums members as one value set first, then each other member; `{}` when one member takes anything. */
function unionSchema(members: readonly AnyStruct[], options: ConvertOptions): JsonSchema {
  const constants: unknown[] = [];
  const schemas: JsonSchema[] = [];
  for (const member of members) {
    if (!noteOf(member) && member.type === 'literal') constants.push(member.schema);
    else if (!noteOf(member) && member.type === 'enums') constants.push(...Object.values(member.schema as Record<string, unknown>));
    else schemas.push(toJsonSchema(member, options));
  }
  if (constants.length) schemas.unshift(constantSchema(constants));
  const unique = schemas.filter((s, i) => schemas.findIndex((t) => JSON.stringify(t) === JSON.stringify(s)) === i);
  if (unique.length === 1) return unique[0]!;
  if (unique.some((s) => Object.keys(s).length === 0)) return {};
  return { anyOf: unique };
}

/** Converts one struct; `asDefinition` converts a named struct itself instead of referring to it. */
export function toJsonSchema(struct: AnyStruct, options: ConvertOptions = {}, asDefinition = false): JsonSchema {
  const name = asDefinition ? undefined : options.names?.get(structKey(struct));
  if (name !== undefined) {
    options.onRef?.(name);
    const ref = { $ref: `${options.refPrefix ?? '#/components/schemas/'}${name}` };
    return isNullable(struct) ? withNull(ref) : ref;
  }
  const note = noteOf(struct);
  switch (note?.kind) {
    case 'optional':
    case 'defaulted':
    case 'coerced':
      return toJsonSchema(note.of, options, asDefinition);
    case 'nullable':
      return withNull(toJsonSchema(note.of, options, asDefinition));
    case 'refined':
      return { ...toJsonSchema(note.of, options, asDefinition), ...note.adds };
    case 'union':
      return unionSchema(note.members, options);
    case 'record':
      return { type: 'object', additionalProperties: toJsonSchema(note.value, options) };
    case 'tuple':
      return { type: 'array', prefixItems: note.items.map((item) => toJsonSchema(item, options)), items: false };
    case 'described': {
      // A copy: the document's consumers (Fastify's serializer) may annotate what they are given.
      const schema = JSON.parse(JSON.stringify(note.schema)) as JsonSchema;
      return note.nullable ? withNull(schema) : schema;
    }
    case 'custom':
      throw undescribed(note.name);
    default:
      return kindSchema(struct, options);
  }
}

/** A struct as superstruct made it, from its `type` and `schema`. */
function kindSchema(struct: AnyStruct, options: ConvertOptions): JsonSchema {
  switch (struct.type) {
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
      return { type: struct.type };
    case 'date':
      return { type: 'string', format: 'date-time' };
    case 'literal':
      // superstruct keeps a string, number or boolean constant; any other (null) as null.
      return struct.schema === null ? { type: 'null' } : constantSchema([struct.schema]);
    case 'enums':
      return constantSchema(Object.values(struct.schema as Record<string, unknown>));
    case 'object':
    case 'type': {
      if (!struct.schema) return { type: 'object' };
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const [key, child] of Object.entries(struct.schema as Record<string, AnyStruct>)) {
        properties[key] = toJsonSchema(child, options);
        if (!isOptional(child)) required.push(key);
      }
      return {
        type: 'object',
        properties,
        ...(required.length ? { required } : {}),
        ...(struct.type === 'object' ? { additionalProperties: false } : {}),
      };
    }
    case 'array':
      return { type: 'array', ...(struct.schema ? { items: toJsonSchema(struct.schema as AnyStruct, options) } : {}) };
    case 'any':
    case 'unknown':
      return {};
    case 'never':
      return { not: {} };
    default:
      // union, record and tuple made with superstruct's own functions keep their members where
      // nothing can read them; dynamic, lazy, map, set… have no mapping.
      throw new Error(`No JSON Schema for a "${struct.type}" struct: make it with src/domain/contract/schema-notes.ts, or map its kind here.`);
  }
}
