import * as superstruct from 'superstruct';
import { array, boolean, date, enums, integer, literal, number, object, string, type, unknown } from 'superstruct';
import { describe, expect, it } from 'vitest';
import { RecoverBodyStruct } from '../../src/domain/contract/auth.ts';
import { CreateProjectBodyStruct, ProjectStruct, UpdateProjectBodyStruct } from '../../src/domain/contract/projects.ts';
import { UsersQueryStruct } from '../../src/domain/contract/users.ts';
import { UpdateCreditsBodyStruct } from '../../src/domain/contract/customers.ts';
import { Id, queryBool, queryInt, ruleField, text } from '../../src/domain/contract/fields.ts';
import { isOptional, toJsonSchema } from '../../src/domain/contract/json-schema.ts';
import {
  defaulted,
  define,
  describedAs,
  max,
  min,
  nonempty,
  nullable,
  optional,
  pattern,
  record,
  refine,
  size,
  tuple,
  union,
} from '../../src/domain/contract/schema-notes.ts';

const convert = (struct: Parameters<typeof toJsonSchema>[0]) => toJsonSchema(struct);

describe('superstruct → JSON Schema', () => {
  it('converts the scalars', () => {
    expect(convert(string())).toEqual({ type: 'string' });
    expect(convert(number())).toEqual({ type: 'number' });
    expect(convert(integer())).toEqual({ type: 'integer' });
    expect(convert(boolean())).toEqual({ type: 'boolean' });
    expect(convert(date())).toEqual({ type: 'string', format: 'date-time' });
    expect(convert(literal('APPROVED'))).toEqual({ type: 'string', const: 'APPROVED' });
    expect(convert(enums(['asc', 'desc']))).toEqual({ type: 'string', enum: ['asc', 'desc'] });
    expect(convert(unknown())).toEqual({});
  });

  it('marks what may be missing as not required, and what takes null as nullable', () => {
    const struct = object({ a: string(), b: optional(number()), c: nullable(string()), d: optional(nullable(enums(['x', 'y']))), e: defaulted(number(), 3) });
    expect(convert(struct)).toEqual({
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: 'number' },
        c: { type: ['string', 'null'] },
        d: { type: ['string', 'null'], enum: ['x', 'y', null] },
        e: { type: 'number' },
      },
      required: ['a', 'c'],
      additionalProperties: false,
    });
    expect(isOptional(optional(string()))).toBe(true);
    expect(isOptional(string())).toBe(false);
  });

  it('leaves type() structs open to more properties, and converts arrays, records, tuples and unions', () => {
    expect(convert(type({ a: string() }))).toEqual({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] });
    expect(convert(array(number()))).toEqual({ type: 'array', items: { type: 'number' } });
    expect(convert(nonempty(array(string())))).toEqual({ type: 'array', items: { type: 'string' }, minItems: 1 });
    expect(convert(record(string(), boolean()))).toEqual({ type: 'object', additionalProperties: { type: 'boolean' } });
    expect(convert(tuple([string(), number()]))).toEqual({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false });
    expect(convert(union([literal(0), literal(1)]))).toEqual({ type: 'integer', enum: [0, 1] });
    expect(convert(union([string(), number()]))).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }] });
    expect(convert(nullable(union([string(), number()])))).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] });
  });

  it('finds size, min, max and pattern refinements', () => {
    expect(convert(size(string(), 2, 10))).toEqual({ type: 'string', minLength: 2, maxLength: 10 });
    expect(convert(min(integer(), 1))).toEqual({ type: 'integer', minimum: 1 });
    // Exact: probing whole numbers once found no maximum at 2.5.
    expect(convert(max(min(number(), 0), 2.5))).toEqual({ type: 'number', minimum: 0, maximum: 2.5 });
    expect(convert(max(min(number(), 0), 100))).toEqual({ type: 'number', minimum: 0, maximum: 100 });
    expect(convert(pattern(string(), /^[a-z]+$/))).toMatchObject({ type: 'string', pattern: '^[a-z]+$' });
  });

  it('reads custom checks (define, ruleField) as their base type with what they allow', () => {
    expect(convert(Id)).toEqual({ type: 'integer', minimum: 1, maximum: 2_147_483_647 });
    expect(convert(queryInt(1, 200))).toEqual({ type: 'integer', minimum: 1, maximum: 200 });
    expect(convert(queryInt(0))).toEqual({ type: 'integer', minimum: 0 });
    expect(convert(queryBool())).toEqual({ type: 'boolean' });
    expect(convert(text(100))).toEqual({ type: 'string', minLength: 1, maxLength: 100 });
    expect(convert(RecoverBodyStruct.schema.email)).toEqual({ type: 'string', format: 'email' });
    expect(
      convert(
        describedAs(
          define('anything', () => true),
          {},
        ),
      ),
    ).toEqual({});
    expect(convert(ruleField('code', (v) => (v === 'only-this-one' ? undefined : 'No.'), { type: 'string', const: 'only-this-one' }))).toEqual({
      type: 'string',
      const: 'only-this-one',
    });
    // A check declared as one of the domain's value sets is that enum.
    expect(convert(UsersQueryStruct.schema.role)).toEqual({ type: 'string', enum: ['editor', 'admin', 'superadmin', 'staff'] });
    // A check described as taking null and a missing value: nullable, and not required.
    const loose = describedAs(
      define('loose', (v) => v === undefined || v === null || typeof v === 'string'),
      { type: 'string' },
      { optional: true, nullable: true },
    );
    expect(convert(object({ loose }))).toEqual({ type: 'object', properties: { loose: { type: ['string', 'null'] } }, additionalProperties: false });
  });

  it('refuses a custom check or a struct kind it has no schema for, naming it', () => {
    expect(() => convert(define('anything', () => true))).toThrow(/"anything"/);
    expect(() => convert(object({ a: optional(define('mystery', () => true)) }))).toThrow(/"mystery"/);
    expect(() => convert(refine(string(), 'short', (v) => v.length < 3))).toThrow(/"short"/);
    expect(() => isOptional(define('mystery', () => true))).toThrow(/"mystery"/);
    // superstruct's own union keeps its members where nothing can read them.
    expect(() => convert(superstruct.union([string(), number()]))).toThrow(/"union"/);
    expect(() => convert(superstruct.map(string(), number()))).toThrow(/"map"/);
  });

  it('converts contract structs', () => {
    const brief = convert(CreateProjectBodyStruct) as { properties: Record<string, unknown>; required: string[] };
    expect(brief.required).toEqual(['name', 'audience', 'goal', 'finalVideoLength', 'brief']);
    expect(brief.properties.finalVideoLength).toEqual({ type: 'string', enum: ['0-60 seconds', '1-2 minutes', '2-5 minutes', '5+ minutes'] });
    expect(brief.properties.name).toEqual({ type: 'string', minLength: 1, maxLength: 43 });
    const update = convert(UpdateProjectBodyStruct) as { properties: Record<string, unknown>; required?: string[] };
    expect(update.required).toBeUndefined();
    expect(update.properties.reviewLink).toMatchObject({ type: ['string', 'null'] });
    const credits = convert(UpdateCreditsBodyStruct) as { properties: Record<string, unknown> };
    expect(credits.properties.startDate).toEqual({ type: 'string', format: 'date' });
    expect(credits.properties.credits).toMatchObject({ type: 'integer', minimum: 0 });
  });

  it('refers to named structs, also through optional() and nullable() copies', () => {
    const refs: string[] = [];
    const names = new Map<unknown, string>([[ProjectStruct.schema, 'Project']]);
    const options = { names, onRef: (name: string) => refs.push(name) };
    expect(toJsonSchema(object({ project: ProjectStruct, previous: nullable(ProjectStruct), next: optional(ProjectStruct) }), options)).toEqual({
      type: 'object',
      properties: {
        project: { $ref: '#/components/schemas/Project' },
        previous: { anyOf: [{ $ref: '#/components/schemas/Project' }, { type: 'null' }] },
        next: { $ref: '#/components/schemas/Project' },
      },
      required: ['project', 'previous'],
      additionalProperties: false,
    });
    expect(refs).toEqual(['Project', 'Project', 'Project']);
    expect(toJsonSchema(ProjectStruct, options, true)).toMatchObject({ type: 'object', properties: { id: { type: 'number' } } });
  });
});
