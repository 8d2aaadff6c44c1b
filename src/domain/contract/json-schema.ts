import { validate, type Struct } from 'superstruct';

/**
 * superstruct → JSON Schema (the 2020-12 dialect of OpenAPI 3.1), so the API reference is read
 * off the very structs the server parses with and cannot drift from them.
 *
 * superstruct keeps `type` and `schema` on every struct: object/type/array/enums/literal are
 * converted from those. What it keeps no data for is found by asking the struct itself, the way
 * the server does (`validate`): optional = accepts a missing value (with coercion, so defaults
 * count), nullable = accepts null, the members of a union = its failures for a value no member
 * takes, and a custom check (`define`, `ruleField`, `refine`'s size/min/max) = which probe values
 * it accepts: the base type, whole numbers, ranges and lengths by bisection, a format (e-mail,
 * date, URL) and one of the domain's value sets (`enumCandidates`). A check that tells nothing
 * passes through as its base type, or as `{}`.
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
  /** Value sets of the domain (roles, statuses, asset types…): a custom text check accepting exactly one of them is documented as that enum. */
  enumCandidates?: readonly (readonly string[])[];
  /**
   * Number sets of the domain (a share link's 1, 7 or 30 days): a number check accepting all of
   * one, beyond the one range probing finds around its first accepted value, is documented as
   * that enum (issue 36: the document said 1 day at most, the server took 7 and 30).
   */
  numberCandidates?: readonly (readonly number[])[];
}

/** The key a named struct is found by: the shared schema object of object/type structs, else the struct. */
export function structKey(struct: AnyStruct): unknown {
  return (struct.type === 'object' || struct.type === 'type') && struct.schema ? struct.schema : struct;
}

function accepts(struct: AnyStruct, value: unknown, coerce = false): boolean {
  try {
    return !validate(value, struct, { coerce })[0];
  } catch {
    return false;
  }
}

function failures(struct: AnyStruct, value: unknown) {
  try {
    const [error] = validate(value, struct);
    return error ? error.failures() : [];
  } catch {
    return [];
  }
}

/** True when a missing property passes (optional(), defaulted(), or a check that accepts undefined). */
export function isOptional(struct: AnyStruct): boolean {
  return accepts(struct, undefined, true);
}

const PROBE_FUNCTION = function probe() {};
const JUNK_TEXT = ['Zebra', 'zebra stripes 42', 'zz-not-a-value-9'];

const STRING_PROBES = {
  plain: ['x', 'Some text', 'Zebra', 'secret123', '5551234', 'pm_probe123'],
  email: ['someone@example.com'],
  date: ['2026-01-31'],
  'date-time': ['2026-01-31T10:00:00.000Z'],
  uri: ['https://example.com/path'],
} as const;
const NUMBER_PROBES = [1, 0, 5, 100, 1_000, 2_147_483_647];
const FRACTION_PROBES = [0.5, 1.5, 2.25];

type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';

function acceptedKinds(struct: AnyStruct): Kind[] {
  const kinds: Kind[] = [];
  if (Object.values(STRING_PROBES).some((probes) => probes.some((p) => accepts(struct, p)))) kinds.push('string');
  const wholes = NUMBER_PROBES.some((n) => accepts(struct, n) || accepts(struct, -n));
  const fractions = FRACTION_PROBES.some((n) => accepts(struct, n));
  if (fractions) kinds.push('number');
  else if (wholes) kinds.push('integer');
  if (accepts(struct, true) || accepts(struct, false)) kinds.push('boolean');
  if (accepts(struct, {})) kinds.push('object');
  if (accepts(struct, [])) kinds.push('array');
  // ruleField / optionalText (fields.ts, users.ts): a text check whose rule took none of the probes.
  if (!kinds.length && failures(struct, 1).some((f) => f.message === 'Must be text.')) kinds.push('string');
  return kinds;
}

/** The last value `from` reaches in `direction` that is still accepted (bisection; null when unbounded). */
/** The last accepted number from `from` in `direction`, or the first refused one when every number short of it is accepted (`exclusive`: `value > 0`). */
function bound(ok: (n: number) => boolean, from: number, direction: 1 | -1, whole: boolean): { value: number; exclusive: boolean } | null {
  let good = from;
  let step = 1;
  let bad: number | null = null;
  while (step <= Number.MAX_SAFE_INTEGER) {
    const next = from + direction * step;
    if (Math.abs(next) > Number.MAX_SAFE_INTEGER) break;
    if (ok(next)) good = next;
    else {
      bad = next;
      break;
    }
    step *= 2;
  }
  if (bad === null) return null;
  while (Math.abs(bad - good) > 1) {
    const mid = Math.floor((good + bad) / 2);
    if (ok(mid)) good = mid;
    else bad = mid;
  }
  // A fractional number may go on a little past the last whole one: up to the first refused
  // whole one, not included (a check like `value > 0`), or past it (no bound found).
  if (!whole && ok(good + direction * 0.5)) return ok(bad - direction * 1e-6) && ok(bad - direction * 0.999) ? { value: bad, exclusive: true } : null;
  return { value: good, exclusive: false };
}

function numberSchema(struct: AnyStruct, whole: boolean, numberCandidates: readonly (readonly number[])[] = []): JsonSchema {
  const out: JsonSchema = { type: whole ? 'integer' : 'number' };
  const outside = (n: number) => (typeof out.minimum === 'number' && n < out.minimum) || (typeof out.maximum === 'number' && n > out.maximum);
  const seed = [...NUMBER_PROBES, ...NUMBER_PROBES.map((n) => -n), ...FRACTION_PROBES].find((n) => accepts(struct, n));
  if (seed === undefined) return out;
  const start = Math.trunc(seed);
  const ok = (n: number) => accepts(struct, n);
  if (!ok(start)) return out;
  const low = bound(ok, start, -1, whole);
  const high = bound(ok, start, 1, whole);
  if (low) out[low.exclusive ? 'exclusiveMinimum' : 'minimum'] = low.value;
  if (high) out[high.exclusive ? 'exclusiveMaximum' : 'maximum'] = high.value;
  const set = numberCandidates.filter((values) => values.length > 0 && values.every(ok) && values.some(outside)).sort((a, b) => b.length - a.length)[0];
  return set ? { type: out.type, enum: [...set] } : out;
}

const MAX_PROBED_LENGTH = 1 << 17;

function stringSchema(struct: AnyStruct, candidates: readonly (readonly string[])[], custom: boolean): JsonSchema {
  const out: JsonSchema = { type: 'string' };
  const ok = (text: string) => accepts(struct, text);
  // Refinements superstruct names in its failures (pattern() cannot be found by probing).
  for (const probe of Object.values(STRING_PROBES).flat()) {
    for (const failure of failures(struct, probe)) {
      const match = failure.refinement === 'pattern' ? /matching `\/(.*)\/` but received/s.exec(failure.message) : null;
      if (match) out.pattern = match[1];
    }
  }
  if (custom && candidates.length && !JUNK_TEXT.some(ok)) {
    const fitting = candidates.filter((set) => set.length > 0 && set.every(ok));
    const best = fitting.sort((a, b) => b.length - a.length)[0];
    if (best) return { type: 'string', enum: [...best] };
  }
  const plain = STRING_PROBES.plain.some(ok);
  if (!plain) {
    const formats = (['email', 'date', 'date-time', 'uri'] as const).filter((format) => STRING_PROBES[format].some(ok));
    if (formats.length === 1) out.format = formats[0];
  }
  const length = (n: number) => n >= 0 && n <= MAX_PROBED_LENGTH && ok('x'.repeat(n));
  const seed = [1, 2, 3, 4, 6, 8, 12, 16, 32, 64].find(length);
  if (seed !== undefined) {
    const low = length(0) ? 0 : (bound(length, seed, -1, true)?.value ?? null);
    if (low) out.minLength = low;
    const high = length(MAX_PROBED_LENGTH) ? null : (bound(length, seed, 1, true)?.value ?? null);
    if (high !== null) out.maxLength = high;
  }
  return out;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A union's members, read from its failures for a value no member takes (superstruct keeps no list). */
function unionSchema(struct: AnyStruct): JsonSchema {
  const members: JsonSchema[] = [];
  const constants: unknown[] = [];
  for (const failure of failures(struct, PROBE_FUNCTION)) {
    if (failure.path.length !== 0 || failure.type === 'union') continue;
    if (failure.type === 'literal') {
      const match = /^Expected the literal `(.*)`, but received/s.exec(failure.message);
      const value = match ? parseJson(match[1]!) : undefined;
      if (value !== undefined) constants.push(value);
      else members.push({});
    } else if (failure.type === 'enums') {
      const match = /^Expected one of `(.*)`, but received/s.exec(failure.message);
      const values = match ? parseJson(`[${match[1]}]`) : undefined;
      if (Array.isArray(values)) constants.push(...values);
      else members.push({});
    } else {
      members.push(builtinByName(failure.type) ?? {});
    }
  }
  if (constants.length) members.unshift(constantSchema(constants));
  const unique = members.filter((m, i) => members.findIndex((n) => JSON.stringify(n) === JSON.stringify(m)) === i);
  if (unique.length === 1) return unique[0]!;
  if (unique.some((m) => Object.keys(m).length === 0)) return {};
  return { anyOf: unique };
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

function builtinByName(name: string): JsonSchema | null {
  switch (name) {
    case 'string':
      return { type: 'string' };
    case 'number':
      return { type: 'number' };
    case 'integer':
      return { type: 'integer' };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date-time' };
    case 'object':
    case 'type':
    case 'record':
      return { type: 'object' };
    case 'array':
    case 'tuple':
      return { type: 'array' };
    default:
      return null;
  }
}

function withNull(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).length === 0) return schema;
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

/** Converts one struct; `asDefinition` converts a named struct itself instead of referring to it. */
export function toJsonSchema(struct: AnyStruct, options: ConvertOptions = {}, asDefinition = false): JsonSchema {
  const isAny = [PROBE_FUNCTION, {}, 'zz', 1.5, true, []].every((v) => accepts(struct, v));
  if (isAny) return {};
  const nullable = accepts(struct, null) && !(struct.type === 'literal' && struct.schema === null);
  const name = asDefinition ? undefined : options.names?.get(structKey(struct));
  let schema: JsonSchema;
  if (name !== undefined) {
    options.onRef?.(name);
    schema = { $ref: `${options.refPrefix ?? '#/components/schemas/'}${name}` };
  } else {
    schema = baseSchema(struct, options);
  }
  return nullable ? withNull(schema) : schema;
}

function baseSchema(struct: AnyStruct, options: ConvertOptions): JsonSchema {
  const candidates = options.enumCandidates ?? [];
  switch (struct.type) {
    case 'string':
      return stringSchema(struct, candidates, false);
    case 'number':
      return numberSchema(struct, false, options.numberCandidates);
    case 'integer':
      return numberSchema(struct, true, options.numberCandidates);
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date-time' };
    case 'literal':
      return struct.schema === null ? { type: 'null' } : constantSchema([struct.schema]);
    case 'enums':
      return constantSchema(Object.values(struct.schema as Record<string, unknown>));
    case 'object':
    case 'type': {
      // define('type', …) is a custom check named "type", not type({…}).
      if (!struct.schema || typeof struct.schema !== 'object') return customSchema(struct, candidates);
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const [key, child] of Object.entries((struct.schema ?? {}) as Record<string, AnyStruct>)) {
        properties[key] = toJsonSchema(child, options);
        if (!isOptional(child)) required.push(key);
      }
      return {
        type: 'object',
        properties,
        ...(required.length ? { required } : {}),
        ...(struct.type === 'object' && struct.schema ? { additionalProperties: false } : {}),
      };
    }
    case 'array': {
      const out: JsonSchema = { type: 'array', ...(struct.schema ? { items: toJsonSchema(struct.schema as AnyStruct, options) } : {}) };
      for (const failure of failures(struct, [])) {
        const size = failure.refinement === 'size' ? /between `(\d+)` and `(\d+)`|of `(\d+)`/.exec(failure.message) : null;
        if (failure.refinement === 'nonempty') out.minItems = 1;
        if (size) out.minItems = Number(size[1] ?? size[3]);
      }
      return out;
    }
    case 'record': {
      // record() keeps its key and value structs only in its entries.
      const entries = [...struct.entries({ probe: 0 }, { path: [], branch: [] })] as [unknown, unknown, AnyStruct][];
      const value = entries[1]?.[2];
      return { type: 'object', ...(value ? { additionalProperties: toJsonSchema(value, options) } : {}) };
    }
    case 'tuple': {
      const items: JsonSchema[] = [];
      for (const [, , element] of struct.entries(new Array(32).fill(0), { path: [], branch: [] }) as Iterable<[unknown, unknown, AnyStruct]>) {
        if (element.type === 'never') break;
        items.push(toJsonSchema(element, options));
      }
      return { type: 'array', prefixItems: items, items: false };
    }
    case 'union':
      return unionSchema(struct);
    case 'any':
    case 'unknown':
      return {};
    case 'never':
      return { not: {} };
    default:
      return customSchema(struct, candidates, options.numberCandidates);
  }
}

/** A `define`d check (ruleField, Id, queryInt…): its base type and what it allows, from probes. */
function customSchema(struct: AnyStruct, candidates: readonly (readonly string[])[], numberCandidates: readonly (readonly number[])[] = []): JsonSchema {
  const kinds = acceptedKinds(struct);
  if (kinds.length === 0) {
    // A check that takes none of the probes may still take exactly one of the domain's value sets.
    const fitting = candidates.filter((set) => set.length > 0 && set.every((value) => accepts(struct, value)));
    const best = fitting.sort((a, b) => b.length - a.length)[0];
    return best ? { type: 'string', enum: [...best] } : {};
  }
  if (kinds.length >= 4) return {};
  if (kinds.length > 1) return { type: kinds };
  const [kind] = kinds;
  if (kind === 'string') return stringSchema(struct, candidates, true);
  if (kind === 'integer' || kind === 'number') return numberSchema(struct, kind === 'integer', numberCandidates);
  return { type: kind };
}
