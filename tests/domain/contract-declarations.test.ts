import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from 'superstruct';
import { describe, expect, it } from 'vitest';
import type { AnyStruct, JsonSchema } from '../../src/domain/contract/json-schema.ts';
import { OPERATIONS } from '../../src/domain/contract/operations.ts';
import { noteOf } from '../../src/domain/contract/schema-notes.ts';

/**
 * Issue 33: the API document maps the structs exactly (json-schema.ts), and what it says of a
 * custom check (`define`, `refine`) is the JSON Schema declared beside the check (`describedAs`).
 * A declaration is written by hand, so it can be wrong: here every declared check of the contract
 * is run on probe values (its base type, whole and fractional numbers, lengths and ranges by
 * bisection, a format, one of the value sets the declarations name), the way the document was
 * once derived, and what the probes find must be what the declaration says. Probing cannot find a
 * `pattern`: a declared one is left out of the comparison.
 *
 * And since superstruct's own optional(), union()… keep nothing the document could read, the
 * contract modules make those with src/domain/contract/schema-notes.ts.
 */

const CONTRACT = join(process.cwd(), 'src', 'domain', 'contract');
const contractFiles = readdirSync(CONTRACT).filter((name) => name.endsWith('.ts'));

// ---- Probing: what a check accepts, found by running it ---------------------------------------

function accepts(struct: AnyStruct, value: unknown, coerce = false): boolean {
  try {
    return !validate(value, struct, { coerce })[0];
  } catch {
    return false;
  }
}

const failures = (struct: AnyStruct, value: unknown) => {
  try {
    return validate(value, struct)[0]?.failures() ?? [];
  } catch {
    return [];
  }
};

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
const MAX_PROBED_LENGTH = 1 << 17;

interface Candidates {
  texts: readonly (readonly string[])[];
  numbers: readonly (readonly number[])[];
}

type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';

function acceptedKinds(struct: AnyStruct): Kind[] {
  const kinds: Kind[] = [];
  if (Object.values(STRING_PROBES).some((probes) => probes.some((p) => accepts(struct, p)))) kinds.push('string');
  const wholes = NUMBER_PROBES.some((n) => accepts(struct, n) || accepts(struct, -n));
  if (FRACTION_PROBES.some((n) => accepts(struct, n))) kinds.push('number');
  else if (wholes) kinds.push('integer');
  if (accepts(struct, true) || accepts(struct, false)) kinds.push('boolean');
  if (accepts(struct, {})) kinds.push('object');
  if (accepts(struct, [])) kinds.push('array');
  // ruleField: a text check whose rule took none of the probes.
  if (!kinds.length && failures(struct, 1).some((f) => f.message === 'Must be text.')) kinds.push('string');
  return kinds;
}

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
  if (!whole && ok(good + direction * 0.5)) return ok(bad - direction * 1e-6) && ok(bad - direction * 0.999) ? { value: bad, exclusive: true } : null;
  return { value: good, exclusive: false };
}

function numberSchema(struct: AnyStruct, whole: boolean, candidates: Candidates): JsonSchema {
  const out: JsonSchema = { type: whole ? 'integer' : 'number' };
  const outside = (n: number) => (typeof out.minimum === 'number' && n < out.minimum) || (typeof out.maximum === 'number' && n > out.maximum);
  const seed = [...NUMBER_PROBES, ...NUMBER_PROBES.map((n) => -n), ...FRACTION_PROBES].find((n) => accepts(struct, n));
  if (seed === undefined) return out;
  const ok = (n: number) => accepts(struct, n);
  const start = Math.trunc(seed);
  if (!ok(start)) return out;
  const low = bound(ok, start, -1, whole);
  const high = bound(ok, start, 1, whole);
  if (low) out[low.exclusive ? 'exclusiveMinimum' : 'minimum'] = low.value;
  if (high) out[high.exclusive ? 'exclusiveMaximum' : 'maximum'] = high.value;
  // A number set accepted whole, beyond the one range found around the first accepted value.
  const set = candidates.numbers.filter((values) => values.length > 0 && values.every(ok) && values.some(outside)).sort((a, b) => b.length - a.length)[0];
  return set ? { type: out.type, enum: [...set] } : out;
}

function stringSchema(struct: AnyStruct, candidates: Candidates): JsonSchema {
  const out: JsonSchema = { type: 'string' };
  const ok = (text: string) => accepts(struct, text);
  if (!JUNK_TEXT.some(ok)) {
    const best = candidates.texts.filter((set) => set.length > 0 && set.every(ok)).sort((a, b) => b.length - a.length)[0];
    if (best) return { type: 'string', enum: [...best] };
  }
  if (!STRING_PROBES.plain.some(ok)) {
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

/** What probing finds a custom check to accept, for a value that is not null. */
function probedSchema(struct: AnyStruct, candidates: Candidates): JsonSchema {
  if ([function probe() {}, {}, 'zz', 1.5, true, []].every((v) => accepts(struct, v))) return {};
  const kinds = acceptedKinds(struct);
  if (kinds.length === 0) {
    const best = candidates.texts.filter((set) => set.length > 0 && set.every((value) => accepts(struct, value))).sort((a, b) => b.length - a.length)[0];
    return best ? { type: 'string', enum: [...best] } : {};
  }
  if (kinds.length >= 4) return {};
  if (kinds.length > 1) return { type: kinds };
  const [kind] = kinds;
  if (kind === 'string') return stringSchema(struct, candidates);
  if (kind === 'integer' || kind === 'number') return numberSchema(struct, kind === 'integer', candidates);
  return { type: kind };
}

// ---- The contract's custom checks --------------------------------------------------------------

const isStruct = (value: unknown): value is AnyStruct =>
  typeof value === 'object' && value !== null && 'validator' in value && 'refiner' in value && 'type' in value;

/** Every struct of the contract, each once, by where it was first found. */
async function contractStructs(): Promise<Map<AnyStruct, string>> {
  const found = new Map<AnyStruct, string>();
  const visit = (struct: unknown, where: string) => {
    if (!isStruct(struct) || found.has(struct)) return;
    found.set(struct, where);
    const note = noteOf(struct);
    if (note && 'of' in note) visit(note.of, where);
    if (note?.kind === 'union') note.members.forEach((member, i) => visit(member, `${where}|${i}`));
    if (note?.kind === 'record') visit(note.value, `${where}{}`);
    if (note?.kind === 'tuple') note.items.forEach((item, i) => visit(item, `${where}[${i}]`));
    if ((struct.type === 'object' || struct.type === 'type') && struct.schema && typeof struct.schema === 'object' && !note) {
      for (const [key, child] of Object.entries(struct.schema as Record<string, unknown>)) visit(child, `${where}.${key}`);
    }
    if (struct.type === 'array' && !note) visit(struct.schema, `${where}[]`);
  };
  // index.ts only re-exports the modules.
  for (const file of contractFiles.filter((name) => name !== 'index.ts')) {
    const module = (await import(join(CONTRACT, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      const where = `${file}: ${name}`;
      if (isStruct(value)) visit(value, where);
      else if (typeof value === 'object' && value !== null && 'method' in value && 'path' in value) {
        const operation = value as { query?: unknown; body?: unknown; answer?: unknown };
        visit(operation.query, `${where} query`);
        visit(operation.body, `${where} body`);
        visit(operation.answer, `${where} answer`);
      }
    }
  }
  for (const operation of OPERATIONS) {
    const where = `${operation.method} ${operation.path}`;
    for (const [name, struct] of Object.entries(operation.params ?? {})) visit(struct, `${where} {${name}}`);
    visit(operation.query, `${where} query`);
    for (const body of [operation.body].flat()) visit(body, `${where} body`);
    for (const [status, answer] of Object.entries(operation.responses)) {
      if (typeof answer === 'object') for (const body of [answer.body].flat()) visit(body, `${where} ${status}`);
    }
  }
  return found;
}

const structs = await contractStructs();

function declaredChecks() {
  const checks: { where: string; struct: AnyStruct; schema: JsonSchema; optional: boolean; nullable: boolean }[] = [];
  for (const [struct, where] of structs) {
    const note = noteOf(struct);
    if (note?.kind === 'described')
      checks.push({ where: `${where} (${note.name})`, struct, schema: note.schema, optional: note.optional, nullable: note.nullable });
  }
  return checks;
}

/** The value sets the declarations name: probing reads a check that accepts one of them whole as that enum. */
function candidatesOf(checks: ReturnType<typeof declaredChecks>): Candidates {
  const sets = checks.map(({ schema }) => schema.enum).filter((set): set is unknown[] => Array.isArray(set));
  return {
    texts: sets.filter((set) => set.every((v) => typeof v === 'string')) as string[][],
    numbers: sets.filter((set) => set.every((v) => typeof v === 'number')) as number[][],
  };
}

const withoutPattern = ({ pattern: _pattern, ...schema }: JsonSchema) => schema;

describe('the custom checks of the API document', () => {
  const checks = declaredChecks();

  it('finds the declared checks (ids, rule fields, query numbers, share-link expiry)', () => {
    expect(checks.length).toBeGreaterThan(40);
    expect(checks.map((c) => c.where).join('\n')).toMatch(/expiresInDays/);
  });

  it('leaves no custom check undeclared', () => {
    const undeclared = [...structs].filter(([struct]) => noteOf(struct)?.kind === 'custom').map(([, where]) => where);
    expect(undeclared).toEqual([]);
  });

  it('declares of each check what probing it finds: its schema, and whether it takes null or a missing value', () => {
    const candidates = candidatesOf(checks);
    const disagreements: string[] = [];
    for (const { where, struct, schema, optional, nullable } of checks) {
      const declared = { schema: withoutPattern(schema), optional, nullable };
      const probed = { schema: probedSchema(struct, candidates), optional: accepts(struct, undefined, true), nullable: accepts(struct, null) };
      if (JSON.stringify(declared) !== JSON.stringify(probed))
        disagreements.push(`${where}: declared ${JSON.stringify(declared)}, probing finds ${JSON.stringify(probed)}`);
    }
    expect(disagreements).toEqual([]);
  });
});

describe('the contract modules', () => {
  /** What superstruct keeps no trace of: made with src/domain/contract/schema-notes.ts, the document can read it. */
  const UNREADABLE = [
    'optional',
    'nullable',
    'defaulted',
    'coerce',
    'union',
    'record',
    'tuple',
    'define',
    'refine',
    'size',
    'min',
    'max',
    'pattern',
    'nonempty',
    'empty',
    'trimmed',
    'partial',
    'deprecated',
    'dynamic',
    'lazy',
    'intersection',
    'struct',
  ];

  it("make optional, nullable, unions, refinements and custom checks with schema-notes.ts, not superstruct's", () => {
    const found: string[] = [];
    for (const file of contractFiles.filter((name) => name !== 'schema-notes.ts')) {
      const source = readFileSync(join(CONTRACT, file), 'utf8');
      if (/import \* as \w+ from 'superstruct'/.test(source)) found.push(`${file}: import * from 'superstruct'`);
      for (const match of source.matchAll(/import (?:type )?\{([^}]*)\} from 'superstruct'/g)) {
        const names = match[1]!.split(',').map(
          (part) =>
            part
              .trim()
              .replace(/^type\s+/, '')
              .split(/\s+as\s+/)[0]!,
        );
        for (const name of names) if (UNREADABLE.includes(name)) found.push(`${file}: ${name}`);
      }
    }
    expect(found).toEqual([]);
  });
});
