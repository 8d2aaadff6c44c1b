import { validate, type Struct } from 'superstruct';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/domain/contract/openapi.ts';
import { OPERATIONS } from '../../src/domain/contract/operations.ts';
import type { AnyStruct, JsonSchema } from '../../src/domain/contract/json-schema.ts';
import { SHARE_LINK_EXPIRY_DAYS } from '../../src/domain/share-links.ts';

/**
 * Issue 36: the API document said a share link lasts at most 1 day while the server took 7 and
 * 30. Every number and every text length the document bounds in a request is checked here against
 * the check the server runs (the same struct): the document accepts a value exactly when the server
 * does, over every whole number from -2 to 1,100, the domain's number sets and the bounds' neighbours.
 */
const document = buildOpenApiDocument();

function resolve(schema: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.split('/').at(-1)!;
  return resolve((document.components as { schemas: Record<string, JsonSchema> }).schemas[name]!);
}

/** What the document's schema for a property allows (the keywords it uses for scalars). */
function documentAccepts(schema: JsonSchema, value: unknown): boolean {
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (variants) return variants.some((variant) => documentAccepts(resolve(variant), value));
  if (value === null) return schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'));
  if (Array.isArray(schema.enum)) return schema.enum.includes(value);
  if ('const' in schema) return schema.const === value;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (typeof value === 'number') {
    if (!types.includes('number') && !(types.includes('integer') && Number.isInteger(value))) return false;
    if (typeof schema.minimum === 'number' && value < schema.minimum) return false;
    if (typeof schema.maximum === 'number' && value > schema.maximum) return false;
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) return false;
    if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) return false;
    return true;
  }
  if (typeof value === 'string') {
    if (!types.includes('string')) return false;
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) return false;
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) return false;
    return true;
  }
  return false;
}

const serverAccepts = (struct: AnyStruct, value: unknown) => !validate(value, struct as Struct<unknown, unknown>, { coerce: true })[0];

interface Bounded {
  where: string;
  struct: AnyStruct;
  schema: JsonSchema;
}

/** The request bodies' and queries' properties the document gives a number type or a text length. */
function boundedProperties(): Bounded[] {
  const found: Bounded[] = [];
  for (const operation of OPERATIONS) {
    const path = (document.paths as Record<string, Record<string, JsonSchema>>)[operation.path]?.[operation.method.toLowerCase()];
    if (!path) continue;
    const bodies = operation.body ? (Array.isArray(operation.body) ? operation.body : [operation.body]) : [];
    const documented = (path.requestBody as { content?: Record<string, { schema: JsonSchema }> } | undefined)?.content?.['application/json']?.schema;
    for (const [i, body] of (bodies as AnyStruct[]).entries()) {
      const schema = documented && resolve(documented);
      const variant = schema && ((schema.anyOf as JsonSchema[] | undefined)?.[i] ? resolve((schema.anyOf as JsonSchema[])[i]!) : schema);
      const properties = (variant?.properties ?? {}) as Record<string, JsonSchema>;
      const fields = (body.schema ?? {}) as Record<string, AnyStruct>;
      for (const [key, property] of Object.entries(properties)) {
        if (fields[key]) found.push({ where: `${operation.method} ${operation.path} body.${key}`, struct: fields[key], schema: resolve(property) });
      }
    }
  }
  return found.filter(({ schema }) => {
    const types = [schema.type, ...((schema.anyOf as JsonSchema[] | undefined) ?? []).map((variant) => resolve(variant).type)].flat();
    return types.includes('integer') || types.includes('number') || 'maxLength' in schema || 'minLength' in schema;
  });
}

describe('the API document and the server agree on every bound', () => {
  const properties = boundedProperties();

  it('finds the bounded properties (share-link expiry among them)', () => {
    expect(properties.length).toBeGreaterThan(5);
    expect(properties.map((p) => p.where)).toContain('POST /projects/{id}/share-links body.expiresInDays');
  });

  it('accepts exactly the numbers the server accepts', () => {
    const numbers = [...Array.from({ length: 1_103 }, (_, i) => i - 2), ...SHARE_LINK_EXPIRY_DAYS, 0.5, 2_147_483_647, 2_147_483_648];
    const disagreements: string[] = [];
    for (const { where, struct, schema } of properties) {
      const bounds = [schema.minimum, schema.maximum, schema.exclusiveMinimum, schema.exclusiveMaximum]
        .filter((n): n is number => typeof n === 'number')
        .flatMap((n) => [n - 1, n, n + 1]);
      for (const value of [...numbers, ...bounds]) {
        if (!serverAccepts(struct, value) && !documentAccepts(schema, value)) continue;
        if (serverAccepts(struct, value) !== documentAccepts(schema, value))
          disagreements.push(`${where}: ${value} (server ${serverAccepts(struct, value)}, document ${documentAccepts(schema, value)})`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('bounds text lengths as the server does', () => {
    const disagreements: string[] = [];
    for (const { where, struct, schema } of properties) {
      const lengths = [schema.minLength, schema.maxLength]
        .filter((n): n is number => typeof n === 'number')
        .flatMap((n) => [n - 1, n, n + 1])
        .filter((n) => n >= 0);
      for (const length of lengths) {
        const value = 'a'.repeat(length);
        // Texts with a format of their own (an e-mail, a phone) are checked by their rule's tests.
        if (
          documentAccepts(schema, value) &&
          !serverAccepts(struct, value) &&
          schema.format === undefined &&
          schema.pattern === undefined &&
          length !== schema.minLength
        ) {
          disagreements.push(`${where}: length ${length} (server refuses, document allows)`);
        }
        if (!documentAccepts(schema, value) && serverAccepts(struct, value))
          disagreements.push(`${where}: length ${length} (server accepts, document refuses)`);
      }
    }
    expect(disagreements).toEqual([]);
  });
});
